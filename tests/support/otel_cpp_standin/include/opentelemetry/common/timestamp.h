// Stand-in (tests only): common::SystemTimestamp and common::SteadyTimestamp, nanoseconds
// since the epoch of the system and of the steady clock.
#pragma once

#include <chrono>
#include <cstdint>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace common {

class SystemTimestamp {
 public:
  SystemTimestamp() noexcept = default;
  template <class Rep, class Period>
  explicit SystemTimestamp(const std::chrono::duration<Rep, Period>& since_epoch) noexcept
      : nanos_(std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count()) {}
  SystemTimestamp(const std::chrono::system_clock::time_point& point) noexcept
      : SystemTimestamp(point.time_since_epoch()) {}

  std::chrono::nanoseconds time_since_epoch() const noexcept {
    return std::chrono::nanoseconds(nanos_);
  }
  bool operator==(const SystemTimestamp& other) const noexcept { return nanos_ == other.nanos_; }
  bool operator!=(const SystemTimestamp& other) const noexcept { return nanos_ != other.nanos_; }

 private:
  int64_t nanos_ = 0;
};

class SteadyTimestamp {
 public:
  SteadyTimestamp() noexcept = default;
  template <class Rep, class Period>
  explicit SteadyTimestamp(const std::chrono::duration<Rep, Period>& since_epoch) noexcept
      : nanos_(std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count()) {}
  SteadyTimestamp(const std::chrono::steady_clock::time_point& point) noexcept
      : SteadyTimestamp(point.time_since_epoch()) {}

  std::chrono::nanoseconds time_since_epoch() const noexcept {
    return std::chrono::nanoseconds(nanos_);
  }
  bool operator==(const SteadyTimestamp& other) const noexcept { return nanos_ == other.nanos_; }
  bool operator!=(const SteadyTimestamp& other) const noexcept { return nanos_ != other.nanos_; }

 private:
  int64_t nanos_ = 0;
};

}  // namespace common
OPENTELEMETRY_END_NAMESPACE
