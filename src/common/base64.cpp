#include "common/base64.hpp"

namespace hermes::internal {
namespace {

std::string encode(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {alphabet[(n >> 18) & 63], alphabet[(n >> 12) & 63], alphabet[(n >> 6) & 63],
            alphabet[n & 63]};
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
  if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
  out += alphabet[(n >> 18) & 63];
  out += alphabet[(n >> 12) & 63];
  if (rest == 2) out += alphabet[(n >> 6) & 63];
  if (pad) out.append(3 - rest, '=');
  return out;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_decode_prefix(std::string_view text, std::size_t max_bytes) {
  std::string out;
  unsigned bits = 0;
  int held = 0;
  for (char c : text) {
    const int v = base64_value(c);
    if (v < 0 || out.size() >= max_bytes) break;
    bits = ((bits << 6) | static_cast<unsigned>(v)) & 0xFFFFu;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out += static_cast<char>((bits >> held) & 0xFF);
    }
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  return encode(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", true);
}

std::string base64url_encode(std::string_view bytes) {
  return encode(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", false);
}

}  // namespace hermes::internal
