#include "context/text_cut.hpp"

#include <cctype>

namespace hermes::internal {
namespace {

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::size_t char_count(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += is_continuation(c) ? 0 : 1;
  return n;
}

std::string_view first_chars(std::string_view text, std::size_t n) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_continuation(text[i])) continue;
    if (seen == n) return text.substr(0, i);
    ++seen;
  }
  return text;
}

std::string_view last_chars(std::string_view text, std::size_t n) {
  if (n == 0) return text.substr(text.size());
  std::size_t seen = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (is_continuation(text[i])) continue;
    if (++seen == n) return text.substr(i);
  }
  return text;
}

std::string elide(std::string_view text, std::size_t max_chars, std::string_view marker) {
  if (char_count(text) <= max_chars) return std::string(text);
  const std::size_t room = max_chars > char_count(marker) ? max_chars - char_count(marker) : 0;
  std::string out(first_chars(text, room));
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
