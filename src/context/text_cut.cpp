#include "context/text_cut.hpp"

#include <cctype>

#include "common/utf8.hpp"

namespace hermes::internal {
std::string elide(std::string_view text, std::size_t max_chars, std::string_view marker) {
  if (utf8_length(text) <= max_chars) return std::string(text);
  const std::size_t room = max_chars > utf8_length(marker) ? max_chars - utf8_length(marker) : 0;
  std::string out(utf8_head(text, room));
  out += marker;
  return out;
}

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

}  // namespace hermes::internal
