// Session titles: what a title may contain and how long it may be.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::store {

// Titles longer than this many characters are refused.
inline constexpr std::size_t kMaxTitleChars = 100;

// `title` cleaned for display: control characters (except tab and newlines) and invisible
// formatting characters (zero-width, bidi overrides, BOM) removed, whitespace runs
// collapsed to one space, ends trimmed. nullopt when nothing is left (the title is
// cleared); InvalidArgument when the result is longer than kMaxTitleChars.
Result<std::optional<std::string>> sanitize_title(std::string_view title);

// `title` without a trailing " #<n>" lineage number.
std::string title_base(std::string_view title);

// The LIKE pattern (ESCAPE '\') matching the numbered titles of `base`: "base #%".
std::string numbered_title_pattern(std::string_view base);

// The title a compression child of a session titled `parent_title` gets: the base title
// when no session uses it yet, else "base #<n+1>" where n is the highest number in use
// among `used` (the titles equal to the base or matching numbered_title_pattern; the
// unnumbered title counts as #1).
std::string next_title_in_lineage(std::string_view parent_title,
                                  const std::vector<std::string>& used);

}  // namespace hermes::store
