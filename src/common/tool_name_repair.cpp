// Mapping invented tool names and provider finish reasons onto the canonical ones.
#include <algorithm>
#include <cctype>

#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"

namespace hermes {
namespace {

std::string camel_to_snake(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (std::isupper(c)) {
      const bool prev_lower = i > 0 && (std::islower(static_cast<unsigned char>(s[i - 1])) ||
                                        std::isdigit(static_cast<unsigned char>(s[i - 1])));
      const bool next_lower =
          i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      const bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(s[i - 1]));
      if (!out.empty() && out.back() != '_' && (prev_lower || (prev_upper && next_lower)))
        out += '_';
      out += internal::lower_ascii(static_cast<char>(c));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string separators_to_underscore(std::string s) {
  std::replace(s.begin(), s.end(), '-', '_');
  std::replace(s.begin(), s.end(), ' ', '_');
  return s;
}

std::string strip_tool_suffix(std::string s) {
  for (int round = 0; round < 2; ++round) {
    bool changed = false;
    for (std::string_view suffix : {"_tool", "-tool", "tool"}) {
      if (s.size() > suffix.size() &&
          s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0) {
        s.erase(s.size() - suffix.size());
        changed = true;
        break;
      }
    }
    if (!changed) break;
  }
  return s;
}

// Matching characters by the Ratcliff/Obershelp method (what difflib's ratio() counts):
// the longest common block, then recursively the parts left and right of it.
std::size_t matching_chars(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return 0;
  std::size_t best_len = 0, best_a = 0, best_b = 0;
  std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
      if (cur[j] > best_len) {
        best_len = cur[j];
        best_a = i - best_len;
        best_b = j - best_len;
      }
    }
    std::swap(prev, cur);
  }
  if (best_len == 0) return 0;
  return best_len + matching_chars(a.substr(0, best_a), b.substr(0, best_b)) +
         matching_chars(a.substr(best_a + best_len), b.substr(best_b + best_len));
}

double similarity(std::string_view a, std::string_view b) {
  const std::size_t total = a.size() + b.size();
  if (total == 0) return 1.0;
  return 2.0 * static_cast<double>(matching_chars(a, b)) / static_cast<double>(total);
}

// Tools renamed upstream; models trained on the old names still call them.
std::optional<std::string_view> renamed_tool(std::string_view legacy) {
  if (legacy == "todo") return "todo_list";
  if (legacy == "process") return "process_manage";
  if (legacy == "cronjob") return "cronjob_manage";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> coerce_tool_name(std::string_view name,
                                            const std::vector<std::string>& available) {
  auto has = [&](const std::string& candidate) {
    return std::find(available.begin(), available.end(), candidate) != available.end();
  };
  if (name.empty()) return std::nullopt;
  if (has(std::string(name))) return std::string(name);

  std::string candidate = internal::lower_ascii(name);
  if (has(candidate)) return candidate;
  if (auto renamed = renamed_tool(candidate); renamed && has(std::string(*renamed))) {
    return std::string(*renamed);
  }
  candidate = separators_to_underscore(candidate);
  if (has(candidate)) return candidate;
  std::string snake = separators_to_underscore(camel_to_snake(name));
  if (has(snake)) return snake;
  for (const std::string& base : {candidate, snake}) {
    std::string stripped = strip_tool_suffix(base);
    if (has(stripped)) return stripped;
  }

  double best = 0.0;
  std::optional<std::string> match;
  for (const auto& tool : available) {
    const double score = similarity(candidate, tool);
    if (score >= 0.7 && score > best) {
      best = score;
      match = tool;
    }
  }
  return match;
}

std::string normalize_finish_reason(std::string_view value) {
  const std::string v = internal::lower_ascii(value);
  if (v.empty() || v == "stop" || v == "end_turn" || v == "stop_sequence" || v == "completed")
    return "stop";
  if (v == "length" || v == "max_tokens" || v == "max_output_tokens" ||
      v == "model_context_window_exceeded") {
    return "length";
  }
  if (v == "tool_calls" || v == "function_call" || v == "tool_use") return "tool_calls";
  if (v == "content_filter" || v == "refusal") return "content_filter";
  if (v == "pause_turn" || v == "incomplete") return "incomplete";
  if (v == "error" || v == "insufficient_system_resource") return "error";
  return v;
}

}  // namespace hermes
