// Small text helpers shared by the loop's phases.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// `text` without leading and trailing ASCII whitespace.
std::string strip(std::string_view text);

// True when `text` is empty or only whitespace.
bool is_blank(std::string_view text);

// `text` with every <think>...</think> (and <thinking>, <reasoning>, <REASONING_SCRATCHPAD>)
// block removed, plus an unclosed opening tag and everything after it. The whitespace
// around what remains is kept: it may be the boundary between continuation parts.
std::string remove_think_blocks(std::string_view text);

// remove_think_blocks(text), stripped.
std::string strip_think_blocks(std::string_view text);

// The first line of `text`, cut to `max_chars` characters (UTF-8 safe) with "..." added.
std::string one_line_preview(std::string_view text, std::size_t max_chars);

}  // namespace hermes::internal
