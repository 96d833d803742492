// Helpers shared by the fuzzy patch's strategies and its replacement step.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hermes::internal {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

// `text` split on '\n' (a trailing newline gives a final empty line).
std::vector<std::string_view> split_lines(std::string_view text);

// The byte span of lines [first, end_line) of the text `lines` came from, without the
// last newline.
std::pair<std::size_t, std::size_t> line_span(const std::vector<std::string_view>& lines,
                                              std::size_t first, std::size_t end_line,
                                              std::size_t content_size);

// Non-overlapping exact occurrences.
Spans exact_matches(std::string_view content, std::string_view pattern);

// Text with typographic punctuation (smart quotes, dashes, ellipsis, Unicode spaces,
// the minus sign) replaced by ASCII, and the offsets to map positions back.
struct NormalizedText {
  std::string text;
  std::vector<std::size_t> original_offsets;    // Per original character, plus the end.
  std::vector<std::size_t> normalized_offsets;  // Where each original character landed.

  // The original span of normalized [begin, end); nullopt when begin splits a character.
  std::optional<std::pair<std::size_t, std::size_t>> to_original(std::size_t begin,
                                                                 std::size_t end) const;
};
NormalizedText unicode_normalize(std::string_view text);

}  // namespace hermes::internal
