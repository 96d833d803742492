// UTF-8 text as Unicode code points, for the rules that count or classify characters
// (query sanitising, title limits) rather than bytes.
#pragma once

#include <string>
#include <string_view>

namespace hermes::store {

// The code points of `utf8`; invalid sequences become U+FFFD first.
std::u32string to_code_points(std::string_view utf8);

// Appends the UTF-8 encoding of `c` to `out`.
void append_utf8(std::string& out, char32_t c);

// The UTF-8 encoding of `text`.
std::string to_utf8(std::u32string_view text);

// Unicode whitespace, as Python's str.isspace() sees it.
bool is_unicode_space(char32_t c);

}  // namespace hermes::store
