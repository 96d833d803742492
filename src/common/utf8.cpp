#include "common/utf8.hpp"

#include <cstdint>

#include "common/byte_scan.hpp"

namespace hermes::internal {

Utf8Char decode_utf8_at(std::string_view text, std::size_t pos) {
  const auto b0 = static_cast<unsigned char>(text[pos]);
  if (b0 < 0x80) return {b0, 1};
  // The continuation byte at pos + k without its marker bits, or -1.
  auto cont = [&](std::size_t k) -> int {
    if (pos + k >= text.size()) return -1;
    const auto b = static_cast<unsigned char>(text[pos + k]);
    return (b & 0xC0) == 0x80 ? (b & 0x3F) : -1;
  };
  const Utf8Char invalid{static_cast<char32_t>(0xDC00 + b0), 1};
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    const int c1 = cont(1);
    if (c1 < 0) return invalid;
    return {static_cast<char32_t>(((b0 & 0x1F) << 6) | c1), 2};
  }
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const int c1 = cont(1);
    const int c2 = cont(2);
    if (c1 < 0 || c2 < 0) return invalid;
    const char32_t cp = ((b0 & 0x0F) << 12) | (c1 << 6) | c2;
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return invalid;  // Overlong, surrogate.
    return {cp, 3};
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const int c1 = cont(1);
    const int c2 = cont(2);
    const int c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return invalid;
    const char32_t cp = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    if (cp < 0x10000 || cp > 0x10FFFF) return invalid;  // Overlong, past U+10FFFF.
    return {cp, 4};
  }
  return invalid;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp >= 0xDC80 && cp <= 0xDCFF) {
    out += static_cast<char>(cp - 0xDC00);  // An invalid byte, escaped on the way in.
  } else if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::u32string to_code_points(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8_at(text, i);
    out += c.cp;
    i += c.length;
  }
  return out;
}

std::string to_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t cp : text) append_utf8(out, cp);
  return out;
}

std::size_t utf8_length(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += is_utf8_continuation(c) ? 0 : 1;
  return n;
}

std::string_view utf8_head(std::string_view text, std::size_t n) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_utf8_continuation(text[i])) continue;
    if (seen == n) return text.substr(0, i);
    ++seen;
  }
  return text;
}

std::string_view utf8_tail(std::string_view text, std::size_t n) {
  if (n == 0) return text.substr(text.size());
  std::size_t seen = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (is_utf8_continuation(text[i])) continue;
    if (++seen == n) return text.substr(i);
  }
  return text;
}

namespace {

// Length of the well-formed sequence starting at text[i], or 0 when it is not one.
std::size_t valid_sequence_length(std::string_view text, std::size_t i) {
  const Utf8Char c = decode_utf8_at(text, i);
  return c.valid() ? c.length : 0;
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
