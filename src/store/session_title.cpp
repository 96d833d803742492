#include "store/session_title.hpp"

#include "store/code_points.hpp"

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

}  // namespace

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
