// Repairs the argument text of a tool call a model produced, so that a replayed history
// never carries arguments a provider would refuse to parse. Local models truncate JSON,
// leave trailing commas, write Python's None, or put raw control characters in strings.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"

namespace hermes {
namespace {

bool parses(std::string_view text) {
  return internal::parse_json(text).has_value();
}

// Control characters inside string values written as \u00XX, which JSON requires.
std::string escape_controls_in_strings(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  bool in_string = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (in_string && c == '\\' && i + 1 < raw.size()) {
      out.append(raw.substr(i, 2));
      ++i;
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (in_string && static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

// A comma directly before a closing bracket, and the whitespace between them, removed.
std::string without_trailing_commas(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == ',') {
      std::size_t j = i + 1;
      while (j < raw.size() &&
             (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r')) {
        ++j;
      }
      if (j < raw.size() && (raw[j] == '}' || raw[j] == ']')) {
        i = j - 1;
        continue;
      }
    }
    out += raw[i];
  }
  return out;
}

char closer_of(char opener) {
  return opener == '{' ? '}' : ']';
}

// Closes what a truncated document left open, in stack order, and inserts the closers a
// model skipped before a closer meant for an outer structure ({"a": [{"b": 1}} gets its
// "]"). Brackets inside strings are text. nullopt when the text ends inside a string:
// what was cut there cannot be guessed.
std::optional<std::string> rebalance_closers(std::string_view raw) {
  std::string out;
  std::vector<char> open;
  bool in_string = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (in_string) {
      if (c == '\\') {
        out.append(raw.substr(i, 2));
        ++i;
        continue;
      }
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      open.push_back(c);
    } else if (c == '}' || c == ']') {
      bool matches_some = false;
      for (char o : open) matches_some = matches_some || closer_of(o) == c;
      if (matches_some) {
        while (closer_of(open.back()) != c) {
          out += closer_of(open.back());
          open.pop_back();
        }
        open.pop_back();
      }
    }
    out += c;
  }
  if (in_string) return std::nullopt;
  for (auto it = open.rbegin(); it != open.rend(); ++it) out += closer_of(*it);
  return out;
}

std::size_t count_of(std::string_view text, char c) {
  std::size_t n = 0;
  for (char x : text) n += x == c ? 1 : 0;
  return n;
}

}  // namespace

std::string repair_tool_call_arguments(std::string_view raw) {
  const std::string_view text = internal::trim_ascii(raw);
  if (text.empty() || text == "None") return "{}";
  if (parses(text)) return std::string(text);
  // Raw control characters in strings are the commonest local-model fault.
  const std::string escaped_only = escape_controls_in_strings(text);
  if (parses(escaped_only)) return escaped_only;

  std::string fixed = without_trailing_commas(text);
  if (auto balanced = rebalance_closers(fixed)) fixed = std::move(*balanced);
  for (int i = 0; i < 50 && !parses(fixed); ++i) {
    const bool extra_brace =
        !fixed.empty() && fixed.back() == '}' && count_of(fixed, '}') > count_of(fixed, '{');
    const bool extra_bracket =
        !fixed.empty() && fixed.back() == ']' && count_of(fixed, ']') > count_of(fixed, '[');
    if (!extra_brace && !extra_bracket) break;
    fixed.pop_back();
  }
  if (parses(fixed)) return fixed;
  const std::string escaped = escape_controls_in_strings(fixed);
  if (escaped != fixed && parses(escaped)) return escaped;
  return "{}";
}

}  // namespace hermes
