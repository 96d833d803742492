// Word-at-a-time scans over bytes, for the paths that walk every character of a
// transcript on every model call (UTF-8 checks, JSON escaping, token estimates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hermes::internal {

namespace byte_scan_detail {
constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHigh = 0x8080808080808080ULL;

inline std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Whether a word with no high bit set holds a byte below `n` (n <= 128), or equal to `c`.
inline bool has_byte_below(std::uint64_t w, unsigned n) { return ((w - kOnes * n) & ~w & kHigh) != 0; }
inline bool has_byte(std::uint64_t w, unsigned char c) {
  const std::uint64_t x = w ^ (kOnes * c);
  return ((x - kOnes) & ~x & kHigh) != 0;
}
}  // namespace byte_scan_detail

// How many leading bytes of p[0, n) are ASCII.
inline std::size_t ascii_prefix(const char* p, std::size_t n) {
  using namespace byte_scan_detail;
  std::size_t i = 0;
  while (i + 8 <= n && (load8(p + i) & kHigh) == 0) i += 8;
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}

// How many leading bytes of p[0, n) a JSON string holds as they are: printable ASCII other
// than '"' and '\'.
inline std::size_t json_plain_prefix(const char* p, std::size_t n) {
  using namespace byte_scan_detail;
  std::size_t i = 0;
  while (i + 8 <= n) {
    const std::uint64_t w = load8(p + i);
    if ((w & kHigh) != 0 || has_byte_below(w, 0x20) || has_byte(w, '"') || has_byte(w, '\\')) break;
    i += 8;
  }
  for (; i < n; ++i) {
    const auto b = static_cast<unsigned char>(p[i]);
    if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') break;
  }
  return i;
}

}  // namespace hermes::internal
