// UTF-8: the one decoder and encoder of the library, and its hygiene. Text from models,
// tools and users may carry invalid bytes or lone surrogates (CESU-8 encoded
// U+D800..U+DFFF) that strict JSON encoders and providers reject.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hermes::internal {

// A code point decoded from UTF-8 and the bytes it took. Well-formed means no overlong
// form, no surrogate, nothing past U+10FFFF and no sequence cut short; any other byte
// decodes on its own to 0xDC00 + byte (U+DC80..U+DCFF, as Python's surrogateescape), a
// value no well-formed character has, so decoding never fails and append_utf8 gives the
// byte back.
struct Utf8Char {
  char32_t cp = 0;
  std::size_t length = 0;

  bool valid() const { return cp < 0xDC80 || cp > 0xDCFF; }
};

// The character starting at text[pos] (pos < text.size()).
Utf8Char decode_utf8_at(std::string_view text, std::size_t pos);

// Appends the UTF-8 encoding of `cp`; an escaped invalid byte (U+DC80..U+DCFF) is
// appended as that byte.
void append_utf8(std::string& out, char32_t cp);

// The code points of `text` (invalid bytes escaped as decode_utf8_at does) and back:
// to_utf8(to_code_points(t)) == t for any bytes.
std::u32string to_code_points(std::string_view text);
std::string to_utf8(std::u32string_view text);

// Character counts and cuts that count code points (a stray continuation byte counts as
// none) and never split one.
inline bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The number of code points in `text`.
std::size_t utf8_length(std::string_view text);

// The first `n` code points of `text` (all of it when shorter).
std::string_view utf8_head(std::string_view text, std::size_t n);

// The last `n` code points of `text` (all of it when shorter).
std::string_view utf8_tail(std::string_view text, std::size_t n);

// True when `text` is well-formed UTF-8 without surrogate code points.
bool is_valid_utf8(std::string_view text);

// `text` with every invalid byte sequence and every surrogate code point replaced by
// U+FFFD. Returns the input unchanged (no copy work beyond the scan) when it is valid.
std::string sanitize_utf8(std::string_view text);

// The length of the longest prefix of `text` that is at most `max_bytes` long and does
// not end inside a multi-byte character.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes);

}  // namespace hermes::internal
