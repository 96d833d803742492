// Small text operations the provider code shares. Protocol tokens (header names, error
// wording, model ids) are ASCII, so case folding never depends on the process locale.
#pragma once

#include <string>
#include <string_view>

#include "common/utf8.hpp"

namespace hermes::internal {

inline char lower_ascii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `text` with A-Z folded to a-z; other bytes (UTF-8 included) unchanged.
inline std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = lower_ascii(c);
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

// `text` without leading and trailing ASCII whitespace.
inline std::string_view trim_ascii(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// `text` cut to at most `max_bytes` without splitting a UTF-8 character.
inline std::string truncate_utf8(std::string_view text, std::size_t max_bytes) {
  return std::string(text.substr(0, utf8_prefix_length(text, max_bytes)));
}

}  // namespace hermes::internal
