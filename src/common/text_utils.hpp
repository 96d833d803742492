// Small text helpers shared across the library: ASCII case and whitespace, trimming,
// bounded excerpts, think blocks. Protocol tokens (header names, error wording, model ids)
// are ASCII, so nothing here depends on the process locale.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "common/utf8.hpp"

namespace hermes::internal {

inline constexpr std::string_view kAsciiSpace = " \t\r\n\f\v";

inline bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

inline char lower_ascii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `text` with A-Z folded to a-z; other bytes (UTF-8 included) unchanged.
inline std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = lower_ascii(c);
  return out;
}

inline char upper_ascii(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// `text` with a-z folded to A-Z; other bytes unchanged.
inline std::string upper_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = upper_ascii(c);
  return out;
}

// True when `a` and `b` are equal ignoring ASCII case.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower_ascii(a[i]) != lower_ascii(b[i])) return false;
  }
  return true;
}

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.starts_with(prefix);
}

inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.ends_with(suffix);
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// True when `list` holds an element equal to `item`.
template <typename List, typename Item>
bool list_contains(const List& list, const Item& item) {
  return std::find(std::begin(list), std::end(list), item) != std::end(list);
}

// `text` without leading and trailing ASCII whitespace.
inline std::string_view trim_ascii(std::string_view text) {
  const std::size_t first = text.find_first_not_of(kAsciiSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kAsciiSpace) - first + 1);
}

// trim_ascii(text) as a string.
inline std::string strip(std::string_view text) {
  return std::string(trim_ascii(text));
}

// True when `text` is empty or only whitespace.
inline bool is_blank(std::string_view text) {
  return trim_ascii(text).empty();
}

// `text` cut to at most `max_bytes` without splitting a UTF-8 character.
inline std::string truncate_utf8(std::string_view text, std::size_t max_bytes) {
  return std::string(text.substr(0, utf8_prefix_length(text, max_bytes)));
}

// `text` trimmed and cut to at most `max_bytes` (UTF-8 safe), with "..." when cut: for
// quoting what a peer sent in an error message.
inline std::string excerpt(std::string_view text, std::size_t max_bytes = 200) {
  text = trim_ascii(text);
  std::string out = truncate_utf8(text, max_bytes);
  if (out.size() < text.size()) out += "...";
  return out;
}

// A byte count for a message about a limit: "16 MiB" for a whole number of MiB, else
// "<n> bytes".
inline std::string byte_size_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    return std::to_string(bytes >> 20) + " MiB";
  }
  return std::to_string(bytes) + " bytes";
}

// `text` with every <think>...</think> (and <thinking>, <reasoning>, <REASONING_SCRATCHPAD>)
// block removed, plus an unclosed opening tag and everything after it. The whitespace
// around what remains is kept: it may be the boundary between continuation parts.
std::string remove_think_blocks(std::string_view text);

// remove_think_blocks(text), stripped.
std::string strip_think_blocks(std::string_view text);

// The value of a hex digit of either case, or -1.
int hex_digit_value(char c);

// `text` with %XX escapes decoded; a '%' not followed by two hex digits stays as written.
// With `plus_is_space` (form encoding) a '+' is a space.
std::string percent_decode(std::string_view text, bool plus_is_space = false);

// The first line of `text`, cut to `max_chars` characters (UTF-8 safe) with "..." added.
std::string one_line_preview(std::string_view text, std::size_t max_chars);

}  // namespace hermes::internal
