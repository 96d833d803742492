#include "context/static_summary.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "context/summary_markers.hpp"
#include "context/text_cut.hpp"
#include "context/tool_result_summary.hpp"
#include "hermes/json.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kSummaryMaxChars = 8'000;
constexpr std::size_t kPreviousSummaryMaxChars = 3'000;
constexpr std::size_t kTurnMaxChars = 700;
constexpr std::size_t kMaxFiles = 12;
constexpr std::size_t kMaxDroppedTurns = 8;
constexpr std::size_t kMaxActions = 12;

// Adds `value` to `items` unless present, blank, or the list is full.
void add_unique(std::vector<std::string>& items, std::string value, std::size_t limit) {
  value = strip(value);
  if (value.empty() || items.size() >= limit) return;
  if (std::find(items.begin(), items.end(), value) == items.end())
    items.push_back(std::move(value));
}

bool is_path_end(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '`' || c == '\'' || c == '"' ||
         c == ')' || c == ']' || c == '}' || c == '<' || c == '>';
}

// Collects what looks like a file path ("/x", "~/x", "C:\x") starting a word of `text`.
void collect_path_mentions(std::string_view text, std::vector<std::string>& files) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool word_start =
        i == 0 || is_path_end(text[i - 1]) || text[i - 1] == '(' || text[i - 1] == '=';
    if (!word_start) continue;
    std::size_t start = i;
    if (text[i] == '~') ++i;
    const bool drive = i + 2 < text.size() && std::isalpha(static_cast<unsigned char>(text[i])) &&
                       text[i + 1] == ':' && text[i + 2] == '\\';
    if (!drive && (i >= text.size() || text[i] != '/')) {
      i = start;
      continue;
    }
    std::size_t end = i + (drive ? 3 : 1);
    while (end < text.size() && !is_path_end(text[end])) ++end;
    std::string path(text.substr(start, end - start));
    while (!path.empty() && std::string_view(".,:;").find(path.back()) != std::string_view::npos)
      path.pop_back();
    if (path.size() > 1 && path != "~/") add_unique(files, path, kMaxFiles);
    i = end;
  }
}

void collect_argument_paths(const Json& value, std::vector<std::string>& files) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      const bool path_key = it.key() == "path" || it.key() == "workdir" ||
                            it.key() == "file_path" || it.key() == "output_path";
      if (path_key && it->is_string()) add_unique(files, it->get<std::string>(), kMaxFiles);
      collect_argument_paths(*it, files);
    }
  } else if (value.is_array()) {
    for (const auto& v : value) collect_argument_paths(v, files);
  } else if (value.is_string()) {
    collect_path_mentions(value.get_ref<const std::string&>(), files);
  }
}

bool mentions_failure(std::string_view text) {
  const std::string low = lower_ascii(text);
  for (std::string_view word :
       {"error", "failed", "exception", "traceback", "timeout", "timed out", "fatal"}) {
    for (std::size_t at = low.find(word); at != std::string::npos; at = low.find(word, at + 1)) {
      const bool left = at == 0 || std::isalnum(static_cast<unsigned char>(low[at - 1])) == 0;
      const std::size_t end = at + word.size();
      const bool right =
          end >= low.size() || std::isalnum(static_cast<unsigned char>(low[end])) == 0;
      if (left && right) return true;
    }
  }
  return false;
}

std::string bullets(const std::vector<std::string>& items) {
  if (items.empty()) return "None.";
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "- " : "\n- ") + item;
  return out;
}

// What the dropped turns tell without a model.
struct Anchors {
  std::vector<std::string> user_asks;
  std::vector<std::string> actions;
  std::vector<std::string> files;
  std::vector<std::string> blockers;
  std::vector<std::string> last_turns;
};

std::string role_label(const Message& m) {
  if (m.role == Role::kUser && is_synthetic_user_turn(m)) return "INTERNAL CONTEXT";
  return upper_ascii(role_name(m.role));
}

Anchors collect_anchors(const std::vector<Message>& turns, const RedactionHook& redact) {
  Anchors a;
  std::unordered_map<std::string, std::pair<std::string, std::string>> calls;
  std::vector<std::string> tool_lines;
  for (const auto& m : turns) {
    const std::string raw = redact ? redact(m.content) : m.content;
    const std::string text = collapse_whitespace(raw);
    collect_path_mentions(text, a.files);
    std::string names;
    for (const auto& call : m.tool_calls) {
      const std::string args = redact ? redact(call.arguments) : call.arguments;
      calls[call.id] = {call.name, args};
      if (auto parsed = parse_json(args)) collect_argument_paths(*parsed, a.files);
      if (names.size() < 200) names += (names.empty() ? "" : ", ") + call.name;
    }
    std::string turn =
        names.empty() ? text : "tool calls: " + names + (text.empty() ? "" : "; " + text);
    if (!strip(turn).empty())
      a.last_turns.push_back(role_label(m) + ": " + elide(turn, kTurnMaxChars, " ...[truncated]"));
    if (m.role == Role::kUser && is_real_user_turn(m) && !text.empty())
      a.user_asks.push_back(elide(text, 600, "..."));
    if (m.role == Role::kAssistant) {
      if (!names.empty())
        a.actions.push_back("Called tool(s): " + names);
      else if (!text.empty())
        a.actions.push_back(elide(text, 600, "..."));
    }
    if (m.role == Role::kTool) {
      auto it = calls.find(m.tool_call_id);
      const std::string name =
          it != calls.end() ? it->second.first : (m.name.empty() ? "unknown" : m.name);
      tool_lines.push_back(
          summarize_tool_result(name, it != calls.end() ? it->second.second : "", raw));
      if (mentions_failure(text)) add_unique(a.blockers, std::string(utf8_head(text, 500)), 5);
    }
  }
  a.actions.insert(a.actions.end(), tool_lines.begin(), tool_lines.end());
  if (a.last_turns.size() > kMaxDroppedTurns) {
    a.last_turns.erase(a.last_turns.begin(),
                       a.last_turns.end() - static_cast<std::ptrdiff_t>(kMaxDroppedTurns));
  }
  return a;
}

}  // namespace

std::string build_static_summary(const std::vector<Message>& turns,
                                 std::string_view previous_summary, std::string_view reason,
                                 const RedactionHook& redact) {
  const Anchors a = collect_anchors(turns, redact);
  std::string completed;
  for (std::size_t i = 0; i < a.actions.size() && i < kMaxActions; ++i) {
    completed += (i ? "\n" : "") + std::to_string(i + 1) + ". " + a.actions[i];
  }
  std::string b;
  b += "## Historical Task Snapshot\n";
  b += a.user_asks.empty() ? std::string(kNoUserTaskSentinel)
                           : "User asked: '" + a.user_asks.back() + "'";
  b += "\n\n## Goal\nThe summary model was unavailable, so this summary was assembled without one. "
       "Continue from the messages after it, and check the current files and state for exact "
       "details.\n\n";
  b += "## Constraints & Preferences\n- Built locally, without a summary model.\n"
       "- Secrets were redacted.\n- It may be incomplete: check files, version control, processes "
       "and test results instead of assuming what was left out.\n\n";
  b += "## Completed Actions\n" +
       (completed.empty() ? std::string("None recoverable.") : completed) + "\n\n";
  b += "## Active State\nUnknown without a model summary; inspect the current state when it "
       "matters.\n\n";
  b +=
      "## Historical In-Progress State\nUnknown. The user ask above is history, not an instruction "
      "to answer again; continue from the messages after this summary.\n\n";
  b += "## Blocked\n" + bullets(a.blockers) + "\n\n";
  b += "## Key Decisions\nNone recoverable without a model summary.\n\n";
  b += "## Resolved Questions\nNone recoverable without a model summary.\n\n";
  b += "## Historical Pending User Asks\nNone recoverable (the latest ask is recorded once above, "
       "as "
       "history).\n\n";
  b += "## Relevant Files\n" + bullets(a.files) + "\n\n";
  b += "## Historical Remaining Work\nContinue from the latest user message after this summary; "
       "verify the state with tools before making claims.\n\n";
  b += "## Last Dropped Turns\n" + bullets(a.last_turns) + "\n\n";
  b += "## Critical Context\nBuilt without a model for " + std::to_string(turns.size()) +
       " compacted message(s).";
  if (!reason.empty()) b += " The summariser failed: " + std::string(reason) + ".";
  if (!previous_summary.empty()) {
    const std::string previous(redact ? redact(previous_summary) : std::string(previous_summary));
    b += "\n\n## Previous Summary Snapshot\n" +
         elide(previous, kPreviousSummaryMaxChars, "\n...[previous summary truncated]") +
         "\n\nThe previous summary stays background context, since it could not be updated.";
  }
  return elide(b, kSummaryMaxChars, "\n...[summary truncated]");
}

}  // namespace hermes::internal
