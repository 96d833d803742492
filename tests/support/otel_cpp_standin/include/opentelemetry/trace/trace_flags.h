// Stand-in (tests only): trace::TraceFlags, the W3C trace flags (bit 0: sampled).
#pragma once

#include <cstdint>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class TraceFlags final {
 public:
  static constexpr uint8_t kIsSampled = 1;

  TraceFlags() noexcept = default;
  explicit TraceFlags(uint8_t flags) noexcept : flags_(flags) {}

  bool IsSampled() const noexcept { return (flags_ & kIsSampled) != 0; }
  uint8_t flags() const noexcept { return flags_; }
  bool operator==(const TraceFlags& other) const noexcept { return flags_ == other.flags_; }
  bool operator!=(const TraceFlags& other) const noexcept { return flags_ != other.flags_; }

 private:
  uint8_t flags_ = 0;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
