// Stand-in (tests only): trace::TraceId, 16 bytes; all zero is invalid.
#pragma once

#include <cstdint>
#include <cstring>

#include "opentelemetry/nostd/span.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class TraceId final {
 public:
  static constexpr int kSize = 16;

  TraceId() noexcept = default;
  explicit TraceId(nostd::span<const uint8_t, kSize> id) noexcept {
    std::memcpy(bytes_, id.data(), kSize);
  }

  void ToLowerBase16(nostd::span<char, 2 * kSize> buffer) const noexcept {
    const char* digits = "0123456789abcdef";
    for (int i = 0; i < kSize; ++i) {
      buffer[2 * i] = digits[bytes_[i] >> 4];
      buffer[2 * i + 1] = digits[bytes_[i] & 0xF];
    }
  }
  nostd::span<const uint8_t, kSize> Id() const noexcept {
    return nostd::span<const uint8_t, kSize>(bytes_, kSize);
  }
  bool IsValid() const noexcept { return *this != TraceId(); }
  bool operator==(const TraceId& other) const noexcept {
    return std::memcmp(bytes_, other.bytes_, kSize) == 0;
  }
  bool operator!=(const TraceId& other) const noexcept { return !(*this == other); }

 private:
  uint8_t bytes_[kSize] = {};
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
