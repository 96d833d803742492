// UTF-8 hygiene: text from models, tools and users may carry invalid bytes or lone
// surrogates (CESU-8 encoded U+D800..U+DFFF) that strict JSON encoders and providers reject.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// True when `text` is well-formed UTF-8 without surrogate code points.
bool is_valid_utf8(std::string_view text);

// `text` with every invalid byte sequence and every surrogate code point replaced by
// U+FFFD. Returns the input unchanged (no copy work beyond the scan) when it is valid.
std::string sanitize_utf8(std::string_view text);

// The length of the longest prefix of `text` that is at most `max_bytes` long and does
// not end inside a multi-byte character.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_bytes);

}  // namespace hermes::internal
