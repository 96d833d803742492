// UTF-8 text as Unicode code points, for the rules that count or classify characters
// (query sanitising, title limits) rather than bytes.
#pragma once

#include <string>
#include <string_view>

#include "common/utf8.hpp"

namespace hermes::store {

// The code points of `utf8`; invalid sequences become U+FFFD first.
std::u32string to_code_points(std::string_view utf8);

using internal::append_utf8;
using internal::to_utf8;

// Unicode whitespace, as Python's str.isspace() sees it.
bool is_unicode_space(char32_t c);

}  // namespace hermes::store
