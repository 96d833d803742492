#include "common/message_fingerprint.hpp"

#include <cstring>
#include <functional>

namespace hermes::internal {
namespace {

constexpr uint64_t kP0 = 0xa0761d6478bd642full;
constexpr uint64_t kP1 = 0xe7037ed1a0b428dbull;
constexpr uint64_t kP2 = 0x8ebc6af09c88c6e3ull;

// The high and low halves of the 128-bit product, folded.
inline uint64_t mix(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ using U128 = unsigned __int128;
  const U128 product = static_cast<U128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
#else
  const uint64_t lo = a * b;
  const uint64_t hi = ((a >> 32) * (b >> 32)) + (((a >> 32) * (b & 0xffffffffu)) >> 32) +
                      (((a & 0xffffffffu) * (b >> 32)) >> 32);
  return lo ^ hi;
#endif
}

inline uint64_t read64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline uint64_t read_tail(const unsigned char* p, std::size_t n) {  // n < 8
  uint64_t v = 0;
  std::memcpy(&v, p, n);
  return v;
}

uint64_t hash_json(const Json& value, uint64_t seed) {
  if (value.is_null()) return mix(seed ^ kP2, kP0);
  return mix(seed ^ static_cast<uint64_t>(std::hash<Json>{}(value)), kP1);
}

uint64_t hash_int(uint64_t value, uint64_t seed) {
  return mix(seed ^ value, kP2);
}

}  // namespace

uint64_t hash_bytes(std::string_view bytes, uint64_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  uint64_t a = seed ^ kP0;
  uint64_t b = seed ^ kP1 ^ n;
  // Two independent lanes of 16 bytes keep the multiplier busy.
  while (n >= 32) {
    a = mix(read64(p) ^ kP1, read64(p + 8) ^ a);
    b = mix(read64(p + 16) ^ kP2, read64(p + 24) ^ b);
    p += 32;
    n -= 32;
  }
  while (n >= 16) {
    a = mix(read64(p) ^ kP1, read64(p + 8) ^ a);
    p += 16;
    n -= 16;
  }
  uint64_t x = 0;
  uint64_t y = 0;
  if (n >= 8) {
    x = read64(p);
    y = read_tail(p + 8, n - 8);
  } else {
    x = read_tail(p, n);
  }
  return mix(mix(x ^ kP1 ^ a, y ^ kP2 ^ b), bytes.size() ^ kP0);
}

uint64_t message_fingerprint(const Message& m) {
  uint64_t h = hash_int(static_cast<uint64_t>(m.role) + (m.scaffolding ? 16 : 0), kP0);
  h = hash_bytes(m.content, h);
  h = hash_json(m.parts, h);
  h = hash_int(m.tool_calls.size(), h);
  for (const ToolCall& call : m.tool_calls) {
    h = hash_bytes(call.id, h);
    h = hash_bytes(call.name, h);
    h = hash_bytes(call.arguments, h);
    h = hash_json(call.extra, h);
  }
  h = hash_bytes(m.tool_call_id, h);
  h = hash_bytes(m.name, h);
  h = hash_bytes(m.reasoning, h);
  h = hash_json(m.reasoning_details, h);
  h = hash_json(m.anthropic_content_blocks, h);
  h = hash_json(m.codex_reasoning_items, h);
  h = hash_json(m.codex_message_items, h);
  h = hash_bytes(m.finish_reason, h);
  h = hash_bytes(m.api_content, h);
  uint64_t stamp = 0;
  std::memcpy(&stamp, &m.timestamp, sizeof stamp);
  h = hash_int(stamp, h);
  h = hash_bytes(m.display_kind, h);
  return hash_json(m.extra, h);
}

}  // namespace hermes::internal
