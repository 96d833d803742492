#include "common/utf8.hpp"

#include <cstdint>

#include "common/byte_scan.hpp"

namespace hermes::internal {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is invalid (or a
// surrogate, or overlong).
std::size_t valid_sequence_length(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80) return 1;
  auto cont = [&](std::size_t k) {
    return i + k < text.size() && (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    if (b0 == 0xE0 && b1 < 0xA0) return 0;   // Overlong.
    if (b0 == 0xED && b1 >= 0xA0) return 0;  // Surrogate.
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    if (b0 == 0xF0 && b1 < 0x90) return 0;   // Overlong.
    if (b0 == 0xF4 && b1 >= 0x90) return 0;  // Above U+10FFFF.
    return 4;
  }
  return 0;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    i += ascii_prefix(text.data() + i, text.size() - i);
    if (i == text.size()) break;
    const std::size_t n = valid_sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string sanitize_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = valid_sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      // A surrogate encoded as three bytes becomes one replacement character.
      const auto b0 = static_cast<unsigned char>(text[i]);
      std::size_t skip = 1;
      if (b0 == 0xED && i + 2 < text.size() &&
          (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80 &&
          (static_cast<unsigned char>(text[i + 2]) & 0xC0) == 0x80) {
        skip = 3;
      }
      i += skip;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

}  // namespace hermes::internal
