#include "agent/text_utils.hpp"

#include <array>
#include <cctype>

#include "common/utf8.hpp"

namespace hermes::internal {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Case-insensitive search for `needle` (ASCII) in `hay` from `from`.
std::size_t find_ci(std::string_view hay, std::string_view needle, std::size_t from) {
  if (needle.size() > hay.size()) return std::string_view::npos;
  for (std::size_t i = from; i + needle.size() <= hay.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < needle.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(hay[i + k])) !=
          std::tolower(static_cast<unsigned char>(needle[k]))) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return std::string_view::npos;
}

constexpr std::array<std::string_view, 4> kThinkTags = {"think", "thinking", "reasoning",
                                                        "reasoning_scratchpad"};

}  // namespace

std::string strip(std::string_view text) {
  std::size_t b = 0;
  std::size_t e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  return std::string(text.substr(b, e - b));
}

bool is_blank(std::string_view text) {
  for (char c : text) {
    if (!is_space(c)) return false;
  }
  return true;
}

std::string strip_think_blocks(std::string_view text) {
  std::string out(text);
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
  return strip(out);
}

std::string one_line_preview(std::string_view text, std::size_t max_chars) {
  std::string_view line = text.substr(0, text.find('\n'));
  const std::size_t cut = utf8_prefix_length(line, max_chars);
  std::string out(line.substr(0, cut));
  if (cut < line.size() || line.size() < text.size()) out += "...";
  return out;
}

}  // namespace hermes::internal
