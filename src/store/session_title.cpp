#include "store/session_title.hpp"

#include <algorithm>
#include <charconv>

#include "store/code_points.hpp"
#include "store/fts_query.hpp"

namespace hermes::store {
namespace {

bool is_dropped_control(char32_t c) {
  return (c < 0x20 && c != U'\t' && c != U'\n' && c != U'\r') || c == 0x7F;
}

// Characters that render as nothing but can disguise one title as another.
bool is_invisible(char32_t c) {
  return (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x2069) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFC);
}

// The n of a trailing " #<n>", or 0 when `title` has none.
long title_number(std::string_view title) {
  const std::size_t hash = title.rfind(" #");
  if (hash == std::string_view::npos || hash + 2 >= title.size()) return 0;
  const std::string_view digits = title.substr(hash + 2);
  long n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n <= 0) return 0;
  return n;
}

}  // namespace

std::string title_base(std::string_view title) {
  if (title_number(title) == 0) return std::string(title);
  return std::string(title.substr(0, title.rfind(" #")));
}

std::string numbered_title_pattern(std::string_view base) {
  return escape_like(base) + " #%";
}

std::string next_title_in_lineage(std::string_view parent_title,
                                  const std::vector<std::string>& used) {
  const std::string base = title_base(parent_title);
  if (used.empty()) return base;
  long highest = 1;  // The unnumbered title is #1.
  for (const auto& title : used) {
    if (title_base(title) == base) highest = std::max(highest, title_number(title));
  }
  return base + " #" + std::to_string(highest + 1);
}

Result<std::optional<std::string>> sanitize_title(std::string_view title) {
  std::u32string clean;
  bool pending_space = false;
  for (char32_t c : to_code_points(title)) {
    if (is_dropped_control(c) || is_invisible(c)) continue;
    if (is_unicode_space(c)) {
      pending_space = !clean.empty();
      continue;
    }
    if (pending_space) clean.push_back(U' ');
    pending_space = false;
    clean.push_back(c);
  }
  if (clean.empty()) return std::optional<std::string>();
  if (clean.size() > kMaxTitleChars) {
    return Status::invalid_argument("title: " + std::to_string(clean.size()) +
                                    " characters, more than the limit of " +
                                    std::to_string(kMaxTitleChars));
  }
  return std::optional<std::string>(to_utf8(clean));
}

}  // namespace hermes::store
