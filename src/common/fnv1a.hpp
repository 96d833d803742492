// FNV-1a, a small non-cryptographic hash: for stable short suffixes and change checks,
// never for anything an attacker could want to collide.
#pragma once

#include <cstdint>
#include <string_view>

namespace hermes::internal {

inline constexpr uint64_t kFnv1a64Offset = 1469598103934665603ull;

// The 64-bit hash of `text`; pass a previous result as `hash` to continue it.
inline uint64_t fnv1a64(std::string_view text, uint64_t hash = kFnv1a64Offset) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// The 32-bit hash of `text`.
inline uint32_t fnv1a32(std::string_view text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

}  // namespace hermes::internal
