// Character-level text cutting for the compressor. Its limits are in characters (code
// points), so cuts count code points (utf8_length, utf8_head, utf8_tail) and never split one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/text_utils.hpp"

namespace hermes::internal {

// `text` cut to `max_chars` code points including `marker`, which ends a cut text.
std::string elide(std::string_view text, std::size_t max_chars, std::string_view marker);

// `text` with every run of whitespace turned into one space, trimmed.
std::string collapse_whitespace(std::string_view text);

}  // namespace hermes::internal
