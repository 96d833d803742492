#include "terminal_callbacks.hpp"

#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace hermes_cli {
namespace {

// The tools running now, for the progress line (parallel tools finish in any order).
class RunningTools {
 public:
  std::string started(const std::string& id, const std::string& label) {
    std::lock_guard<std::mutex> lock(mu_);
    running_[id] = label;
    return line_locked();
  }
  std::string finished(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    running_.erase(id);
    return line_locked();
  }

 private:
  std::string line_locked() const {
    if (running_.empty()) return "";
    if (running_.size() == 1) return "  \xE2\x8F\xB3 running " + running_.begin()->second;
    std::string names;
    for (const auto& [id, label] : running_)
      names += (names.empty() ? "" : ", ") + label.substr(0, label.find(' '));
    return "  \xE2\x8F\xB3 running " + std::to_string(running_.size()) + " tools: " + names;
  }
  std::mutex mu_;
  std::map<std::string, std::string> running_;
};

std::string shorten(std::string text, std::size_t max) {
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (text.size() > max) text = text.substr(0, max - 3) + "...";
  return text;
}

std::string seconds_text(std::chrono::milliseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(d.count()) / 1000.0);
  return buf;
}

void on_progress(Terminal& term, RunningTools& running, const hermes::ToolProgress& p) {
  const std::string label = p.name + (p.preview.empty() ? "" : " " + shorten(p.preview, 60));
  if (p.phase == hermes::ToolProgress::Phase::kStarted) {
    term.status(running.started(p.call_id, label));
    return;
  }
  const std::string rest = running.finished(p.call_id);
  term.notice(std::string("  ") + (p.is_error ? "\xE2\x9C\x97 " : "\xE2\x9C\x93 ") + label + "  (" +
              seconds_text(p.duration) + ")");
  term.status(rest);
}

hermes::ApprovalDecision ask_approval(const CallbackContext& c, const hermes::ApprovalRequest& r) {
  if (c.prompts == nullptr) return hermes::ApprovalDecision::kDeny;
  auto show = [&] {
    c.terminal->notice("\xE2\x9A\xA0 Dangerous command (" + r.description + "):\n    " + r.command,
                       true);
    c.terminal->prompt("  Allow? [o]nce / [s]ession / [a]lways / [d]eny (default deny): ");
  };
  std::optional<std::string> line = c.prompts->ask(show, c.question_timeout);
  hermes::ApprovalDecision d =
      line ? parse_approval_answer(*line) : hermes::ApprovalDecision::kDeny;
  if (d == hermes::ApprovalDecision::kDeny) c.terminal->notice("  denied", true);
  return d;
}

std::optional<std::string> ask_clarify(const CallbackContext& c, const std::string& question,
                                       const std::vector<std::string>& choices) {
  if (c.prompts == nullptr) return std::nullopt;
  auto show = [&] {
    c.terminal->notice("? " + question, true);
    for (std::size_t i = 0; i < choices.size(); ++i) {
      c.terminal->notice("  " + std::to_string(i + 1) + ". " + choices[i], true);
    }
    if (!choices.empty()) c.terminal->notice("  (a number, or type your own answer)", true);
    c.terminal->prompt("  answer: ");
  };
  std::optional<std::string> line = c.prompts->ask(show, c.question_timeout);
  if (!line) return std::nullopt;
  return parse_clarify_answer(*line, choices);
}

}  // namespace

hermes::ApprovalDecision parse_approval_answer(const std::string& line) {
  std::string a;
  for (char ch : line) {
    if (ch != ' ') a += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  if (a == "o" || a == "once" || a == "y" || a == "yes") return hermes::ApprovalDecision::kOnce;
  if (a == "s" || a == "session") return hermes::ApprovalDecision::kSession;
  if (a == "a" || a == "always") return hermes::ApprovalDecision::kAlways;
  return hermes::ApprovalDecision::kDeny;
}

std::string parse_clarify_answer(const std::string& line, const std::vector<std::string>& choices) {
  char* end = nullptr;
  long n = std::strtol(line.c_str(), &end, 10);
  if (end != line.c_str() && *end == '\0' && n >= 1 &&
      static_cast<std::size_t>(n) <= choices.size()) {
    return choices[static_cast<std::size_t>(n - 1)];
  }
  return line;
}

std::string status_notice(std::string_view kind, std::string_view message) {
  // The library's notices name no command; what this program's user can type is said here.
  static const std::map<std::string_view, std::string_view> kHints = {
      {"compression_blocked", "Run /new to start a fresh session or /compress to retry now."},
      {"compression_failed", "Run /compress to retry, or /new to start a fresh session."},
      {"compression_repeated", "Consider /new to start fresh."},
      {"compression_ineffective",
       "Run /new to start fresh or /compress <topic> to compact by hand."},
  };
  std::string text(message);
  if (const auto it = kHints.find(kind); it != kHints.end()) {
    if (!text.empty() && text.back() != '.') text += '.';
    text += ' ';
    text += it->second;
  }
  return text;
}

hermes::Callbacks make_terminal_callbacks(const CallbackContext& context) {
  hermes::Callbacks cb;
  Terminal* term = context.terminal;
  auto running = std::make_shared<RunningTools>();
  cb.on_stream_delta = [term](std::string_view delta) {
    if (term->quiet()) return;
    if (delta.empty()) return term->end_stream();
    term->stream(delta);
  };
  cb.on_thinking = [term](bool thinking) {
    term->status(thinking ? "  \xE2\x80\xA6 thinking" : "");
  };
  cb.on_tool_progress = [term, running](const hermes::ToolProgress& p) {
    on_progress(*term, *running, p);
  };
  cb.on_status = [term](std::string_view kind, std::string_view message) {
    if (kind == "lifecycle") return;
    term->notice("  [" + std::string(kind) + "] " + status_notice(kind, message));
  };
  cb.on_approval = [context](const hermes::ApprovalRequest& r) { return ask_approval(context, r); };
  cb.on_clarify = [context](const std::string& q, const std::vector<std::string>& choices) {
    return ask_clarify(context, q, choices);
  };
  return cb;
}

}  // namespace hermes_cli
