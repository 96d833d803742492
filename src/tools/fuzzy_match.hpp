// Find-and-replace that tolerates how models quote code: a chain of matching strategies
// from exact to similarity-based, the first with any match winning.
//
//   1 exact               2 line-trimmed        3 whitespace-normalised
//   4 indentation-flexible 5 escape-normalised  6 trimmed-boundary
//   7 unicode-normalised  8 block-anchor (first/last line, middle similarity >= 0.50 for
//                            one candidate, >= 0.70 for several)
//   9 context-aware (anchors and every non-blank line >= 0.80 similar)
//
// A non-exact match re-indents the replacement to the file's indentation, turns \t and \r
// escapes into real characters only where the matched text has them, keeps the file's
// Unicode punctuation, and refuses escape drift (\' or \" the file does not have).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hermes::internal {

struct FuzzyReplaceResult {
  std::string content;  // The new content (the old one on failure).
  int replacements = 0;
  std::string strategy;  // The strategy that matched; empty on failure.
  std::string error;     // Empty on success.
};

FuzzyReplaceResult fuzzy_find_and_replace(const std::string& content, const std::string& old_string,
                                          const std::string& new_string, bool replace_all);

// The strategy chain alone: match spans (byte offsets) and the strategy that found them.
std::pair<std::vector<std::pair<std::size_t, std::size_t>>, std::string> fuzzy_find(
    const std::string& content, const std::string& pattern);

// Whether the edit is already in the file: new_string (8+ non-blank characters) is present
// exactly and old_string is gone (or equal to it). Retried edits become no-op successes.
bool edit_already_applied(const std::string& content, const std::string& old_string,
                          const std::string& new_string);

// "Did you mean" lines for a failed match: the lines most like old_string's first line,
// with line numbers, and a note when only whitespace differs. Empty when nothing is close.
std::string closest_lines_hint(const std::string& old_string, const std::string& content);

}  // namespace hermes::internal
