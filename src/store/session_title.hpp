// Session titles: what a title may contain and how long it may be.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hermes/status.hpp"

namespace hermes::store {

// Titles longer than this many characters are refused.
inline constexpr std::size_t kMaxTitleChars = 100;

// `title` cleaned for display: control characters (except tab and newlines) and invisible
// formatting characters (zero-width, bidi overrides, BOM) removed, whitespace runs
// collapsed to one space, ends trimmed. nullopt when nothing is left (the title is
// cleared); InvalidArgument when the result is longer than kMaxTitleChars.
Result<std::optional<std::string>> sanitize_title(std::string_view title);

}  // namespace hermes::store
