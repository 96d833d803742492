#include "context/tool_result_summary.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <optional>

#include "common/json_text.hpp"
#include "common/number_format.hpp"
#include "common/text_utils.hpp"
#include "context/text_cut.hpp"
#include "hermes/json.hpp"

namespace hermes::internal {
namespace {

// Summaries are kept under the 200-character pruning floor so they are never pruned again.
constexpr std::size_t kClarifySummaryMaxChars = 199;
constexpr std::size_t kSkillBodyPruneChars = 5'000;

// Everything a per-tool formatter needs.
struct ToolFacts {
  std::string_view name;
  const nlohmann::ordered_json& args;
  std::string_view content;
  int64_t chars = 0;  // Code points of the result.
  int64_t lines = 0;  // Lines of the result; 0 when it is blank.

  // Argument `key` as text: strings as they are, other values as JSON, `fallback` when
  // absent or null. Models send numbers and booleans where strings belong.
  std::string arg(const char* key, std::string_view fallback = "") const {
    auto it = args.find(key);
    if (it == args.end() || it->is_null()) return std::string(fallback);
    if (it->is_string()) return it->get<std::string>();
    return it->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  std::string size() const { return with_thousands(chars); }
};

// The integer after `"key":` in JSON-ish text, as written.
std::optional<std::string> int_after_key(std::string_view text, std::string_view quoted_key,
                                         bool allow_negative) {
  for (std::size_t at = text.find(quoted_key); at != std::string_view::npos;
       at = text.find(quoted_key, at + 1)) {
    std::size_t i = at + quoted_key.size();
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    if (allow_negative && i < text.size() && text[i] == '-') ++i;
    const std::size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i > digits) return std::string(text.substr(start, i - start));
  }
  return std::nullopt;
}

std::string shortened(std::string_view text, std::size_t max_chars) {
  if (utf8_length(text) <= max_chars) return std::string(text);
  return std::string(utf8_head(text, max_chars - 3)) + "...";
}

std::string terminal(const ToolFacts& f) {
  const auto code = int_after_key(f.content, "\"exit_code\"", true);
  return "[terminal] ran `" + shortened(f.arg("command"), 80) + "` -> exit " + code.value_or("?") +
         ", " + std::to_string(f.lines) + " lines output";
}

std::string write_file(const ToolFacts& f) {
  const std::string body = f.arg("content");
  const std::string lines =
      body.empty() ? "?" : std::to_string(std::count(body.begin(), body.end(), '\n') + 1);
  return "[write_file] wrote to " + f.arg("path", "?") + " (" + lines + " lines)";
}

std::string search_files(const ToolFacts& f) {
  const auto count = int_after_key(f.content, "\"total_count\"", false);
  return "[search_files] " + f.arg("target", "content") + " search for '" + f.arg("pattern", "?") +
         "' in " + f.arg("path", ".") + " -> " + count.value_or("?") + " matches";
}

std::string browser(const ToolFacts& f) {
  const std::string url = f.arg("url");
  const std::string ref = f.arg("ref");
  const std::string detail = !url.empty() ? " " + url : !ref.empty() ? " ref=" + ref : "";
  return "[" + std::string(f.name) + "]" + detail + " (" + f.size() + " chars)";
}

std::string web_extract(const ToolFacts& f) {
  auto urls = f.args.find("urls");
  std::string first = "?";
  std::size_t count = 0;
  if (urls != f.args.end() && urls->is_array() && !urls->empty()) {
    count = urls->size();
    const auto& head = urls->front();
    // Models often pass web_search result objects straight through.
    if (head.is_string()) {
      first = head.get<std::string>();
    } else if (head.is_object()) {
      for (const char* key : {"url", "href"}) {
        if (auto it = head.find(key); it != head.end() && it->is_string()) {
          first = it->get<std::string>();
          break;
        }
      }
    }
  }
  if (count > 1) first += " (+" + std::to_string(count - 1) + " more)";
  return "[web_extract] " + first + " (" + f.size() + " chars)";
}

std::string execute_code(const ToolFacts& f) {
  const std::string code = f.arg("code");
  std::string preview(utf8_head(code, 60));
  std::replace(preview.begin(), preview.end(), '\n', ' ');
  if (utf8_length(code) > 60) preview += "...";
  return "[execute_code] `" + preview + "` (" + std::to_string(f.lines) + " lines output)";
}

std::string skill(const ToolFacts& f) {
  const std::string skill_name = f.arg("name", "?");
  std::string out =
      "[" + std::string(f.name) + "] name=" + skill_name + " (" + f.size() + " chars)";
  if (f.name == "skill_view" && static_cast<std::size_t>(f.chars) > kSkillBodyPruneChars) {
    // Without this the model believes it still follows a skill whose text is gone.
    out += " [SKILL_PRUNED: content lost in compression; reload with skill_view(name='" +
           skill_name + "')]";
  }
  return out;
}

// A clarify answer is worth keeping verbatim: it is the user's decision.
std::optional<nlohmann::ordered_json> clarify_answer(std::string_view content) {
  if (json_nesting_exceeds(content)) return std::nullopt;
  auto parsed = nlohmann::ordered_json::parse(content, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  auto is_answer = [](const nlohmann::ordered_json& v) {
    if (!v.is_string()) return false;
    const auto& s = v.get_ref<const std::string&>();
    // A timeout writes a bracketed notice instead of an answer.
    return !s.empty() && !(s.front() == '[' && s.find("did not respond") != std::string::npos);
  };
  if (auto r = parsed.find("user_response"); r != parsed.end() && is_answer(*r)) return *r;
  nlohmann::ordered_json answers = nlohmann::ordered_json::array();
  if (auto batch = parsed.find("responses"); batch != parsed.end() && batch->is_array()) {
    for (const auto& entry : *batch) {
      if (!entry.is_object()) continue;
      if (auto r = entry.find("user_response"); r != entry.end() && is_answer(*r))
        answers.push_back(*r);
    }
  }
  if (answers.empty()) return std::nullopt;
  return answers;
}

std::string clarify(const ToolFacts& f) {
  auto answer = clarify_answer(f.content);
  if (!answer) return "[clarify] asked user a question";
  const std::string json =
      answer->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return elide("[clarify] user responded: " + json, kClarifySummaryMaxChars, "...[truncated]");
}

std::string generic(const ToolFacts& f) {
  std::string shown;
  int taken = 0;
  for (auto it = f.args.begin(); it != f.args.end() && taken < 2; ++it, ++taken) {
    std::string value =
        it->is_string()
            ? it->get<std::string>()
            : it->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    shown += " " + it.key() + "=" + std::string(utf8_head(value, 40));
  }
  return "[" + std::string(f.name) + "]" + shown + " (" + f.size() + " chars result)";
}

bool is_browser_tool(std::string_view name) {
  for (std::string_view b : {"browser_navigate", "browser_click", "browser_snapshot",
                             "browser_type", "browser_scroll", "browser_vision"}) {
    if (name == b) return true;
  }
  return false;
}

std::string describe(const ToolFacts& f) {
  const std::string_view n = f.name;
  const std::string chars = " (" + f.size() + " chars";
  if (n == "terminal") return terminal(f);
  if (n == "read_file") {
    return "[read_file] read " + f.arg("path", "?") + " from line " + f.arg("offset", "1") + chars +
           ")";
  }
  if (n == "write_file") return write_file(f);
  if (n == "search_files") return search_files(f);
  if (n == "patch")
    return "[patch] " + f.arg("mode", "replace") + " in " + f.arg("path", "?") + chars + " result)";
  if (is_browser_tool(n)) return browser(f);
  if (n == "web_search")
    return "[web_search] query='" + f.arg("query", "?") + "'" + chars + " result)";
  if (n == "web_extract") return web_extract(f);
  if (n == "delegate_task")
    return "[delegate_task] '" + shortened(f.arg("goal"), 60) + "'" + chars + " result)";
  if (n == "execute_code") return execute_code(f);
  if (n == "skill_view" || n == "skills_list" || n == "skill_manage") return skill(f);
  if (n == "vision_analyze") {
    return "[vision_analyze] '" + std::string(utf8_head(f.arg("question"), 50)) + "'" + chars + ")";
  }
  if (n == "memory") return "[memory] " + f.arg("action", "?") + " on " + f.arg("target", "?");
  if (n == "todo") return "[todo] updated task list";
  if (n == "clarify") return clarify(f);
  if (n == "text_to_speech") return "[text_to_speech] generated audio" + chars + ")";
  if (n == "cronjob") return "[cronjob] " + f.arg("action", "?");
  if (n == "process")
    return "[process] " + f.arg("action", "?") + " session=" + f.arg("session_id", "?");
  return generic(f);
}

}  // namespace

std::string summarize_tool_result(std::string_view tool_name, std::string_view arguments,
                                  std::string_view content) {
  const auto chars = static_cast<int64_t>(utf8_length(content));
  try {
    auto args = json_nesting_exceeds(arguments)
                    ? nlohmann::ordered_json()
                    : nlohmann::ordered_json::parse(arguments, nullptr, false);
    if (args.is_discarded() || !args.is_object()) args = nlohmann::ordered_json::object();
    ToolFacts facts{tool_name, args, content, chars, 0};
    if (!is_blank(content)) facts.lines = std::count(content.begin(), content.end(), '\n') + 1;
    return describe(facts);
  } catch (const std::exception&) {
    // A description must never stop a compaction, which would retry on the same history.
    return "[" + std::string(tool_name) + "] (" + with_thousands(chars) + " chars result)";
  }
}

}  // namespace hermes::internal
