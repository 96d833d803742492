// Character-level text cutting for the compressor. Limits in the upstream runtime are in
// characters (code points), so cuts here count code points and never split one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/text_utils.hpp"

namespace hermes::internal {

// The number of code points in UTF-8 `text` (a stray continuation byte counts as none).
std::size_t char_count(std::string_view text);

// The first `n` code points of `text` (all of it when shorter).
std::string_view first_chars(std::string_view text, std::size_t n);

// The last `n` code points of `text` (all of it when shorter).
std::string_view last_chars(std::string_view text, std::size_t n);

// `text` cut to `max_chars` code points including `marker`, which ends a cut text.
std::string elide(std::string_view text, std::size_t max_chars, std::string_view marker);

// `text` with every run of whitespace turned into one space, trimmed.
std::string collapse_whitespace(std::string_view text);

}  // namespace hermes::internal
