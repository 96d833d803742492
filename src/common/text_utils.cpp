#include "common/text_utils.hpp"

#include <array>

namespace hermes::internal {
namespace {

// Case-insensitive search for the tag `needle` (ASCII, starting with '<', which has no
// case) in `hay` from `from`. Jumping from one '<' to the next keeps the scan of a long
// message without tags at memchr speed: it runs on every assistant message of every
// request.
std::size_t find_ci(std::string_view hay, std::string_view needle, std::size_t from) {
  for (std::size_t i = hay.find(needle.front(), from);
       i != std::string_view::npos && i + needle.size() <= hay.size();
       i = hay.find(needle.front(), i + 1)) {
    if (iequals(hay.substr(i, needle.size()), needle)) return i;
  }
  return std::string_view::npos;
}

constexpr std::array<std::string_view, 4> kThinkTags = {"think", "thinking", "reasoning",
                                                        "reasoning_scratchpad"};

}  // namespace

std::string remove_think_blocks(std::string_view text) {
  std::string out(text);
  if (text.find('<') == std::string_view::npos) return out;  // No tag at all.
  for (auto tag : kThinkTags) {
    const std::string open = "<" + std::string(tag) + ">";
    const std::string close = "</" + std::string(tag) + ">";
    std::size_t pos = 0;
    while ((pos = find_ci(out, open, pos)) != std::string::npos) {
      std::size_t end = find_ci(out, close, pos + open.size());
      if (end == std::string::npos) {
        out.erase(pos);  // An unclosed block hides everything after it.
        break;
      }
      out.erase(pos, end + close.size() - pos);
    }
  }
  return out;
}

std::string strip_think_blocks(std::string_view text) {
  if (text.find('<') == std::string_view::npos) return strip(text);
  return strip(remove_think_blocks(text));
}

std::string one_line_preview(std::string_view text, std::size_t max_chars) {
  std::string_view line = text.substr(0, text.find('\n'));
  const std::size_t cut = utf8_prefix_length(line, max_chars);
  std::string out(line.substr(0, cut));
  if (cut < line.size() || line.size() < text.size()) out += "...";
  return out;
}

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (plus_is_space && text[i] == '+') {
      out += ' ';
      continue;
    }
    if (text[i] == '%' && i + 2 < text.size()) {
      const int high = hex_digit_value(text[i + 1]);
      const int low = hex_digit_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high << 4 | low);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace hermes::internal
