#include "safety/approval.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <thread>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/command_guard.hpp"
#include "safety/log.hpp"
#include "safety/regex.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kDoNotRetry =
    "Do not retry it, rephrase it, or reach the same outcome another way; stop and wait for the "
    "user's instructions.";

std::string hardline_message(const std::string& description) {
  return "BLOCKED: this command is on the hardline list (" + description +
         ") and can never run through the agent. If it is truly intended, the user must run it "
         "manually outside the agent. " +
         std::string(kDoNotRetry);
}

std::string denied_message(const std::string& description) {
  return "BLOCKED: the user denied this command (" + description +
         "). The user did not consent to it. " + std::string(kDoNotRetry);
}

std::string timeout_message(const std::string& description, std::chrono::milliseconds timeout) {
  return "BLOCKED: nobody approved this command (" + description + ") within " +
         std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
         " seconds, and silence is not consent. " + std::string(kDoNotRetry);
}

std::string no_channel_message(const std::string& description) {
  return "BLOCKED: this command needs a human's approval (" + description +
         ") and no approval channel is available, so it was denied. " + std::string(kDoNotRetry);
}

// ---- Waiting for the human ----

enum class WaitResult { kDecided, kTimedOut, kCancelled };

struct PendingDecision {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  ApprovalDecision decision = ApprovalDecision::kDeny;
};

// The callback runs on its own thread so an unanswered prompt can neither outlast the
// timeout nor hold up an interrupt; a late answer is dropped.
WaitResult wait_for_human(const Callbacks& callbacks, const ApprovalRequest& request,
                          const CancelToken& cancel, std::chrono::milliseconds timeout,
                          ApprovalDecision& decision) {
  auto pending = std::make_shared<PendingDecision>();
  std::thread([pending, callback = callbacks.on_approval, request] {
    ApprovalDecision d = ApprovalDecision::kDeny;
    try {
      d = callback(request);
    } catch (const std::exception& e) {
      HERMES_LOG_WARN("approval callback threw: {}", e.what());
    } catch (...) {
      HERMES_LOG_WARN("approval callback threw");
    }
    {
      std::lock_guard<std::mutex> lock(pending->mu);
      pending->decision = d;
      pending->done = true;
    }
    pending->cv.notify_all();
  }).detach();

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(pending->mu);
  while (!pending->done) {
    if (cancel.cancelled()) return WaitResult::kCancelled;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return WaitResult::kTimedOut;
    pending->cv.wait_for(lock, std::min<std::chrono::steady_clock::duration>(
                                   deadline - now, std::chrono::milliseconds(50)));
  }
  decision = pending->decision;
  return WaitResult::kDecided;
}

// ---- Floors ----

// Without a configured sudo password, `sudo -S` can only mean the model is feeding a
// guessed password on stdin.
bool is_sudo_password_guess(const std::string& normalized) {
  static const Regex kSudoStdin = Regex::builtin(R"~((?:^|[;&|`\n]|&&|\|\||\$\()\s*sudo\s+-S\b)~",
                                                 RegexOptions{true, false, false});
  return std::getenv("SUDO_PASSWORD") == nullptr && kSudoStdin.search(normalized);
}

std::optional<std::string> matching_deny_rule(const std::vector<std::string>& rules,
                                              const std::string& normalized) {
  for (const std::string& rule : rules) {
    auto re = Regex::compile(rule, RegexOptions{true, false, true});
    if (!re.ok()) {
      HERMES_LOG_WARN("ignoring approval deny rule '{}': {}", rule, re.status().message());
      continue;
    }
    if (re->search(normalized)) return rule;
  }
  return std::nullopt;
}

std::mutex& allowlist_mutex() {
  static std::mutex mu;
  return mu;
}

std::string allowlist_path(const std::string& home) {
  return home + "/command_allowlist.json";
}

// Older versions approved whole rules; say once per home that those entries are ignored.
void warn_about_legacy_entries(const std::string& home, const CommandApprovals& approvals) {
  if (approvals.legacy.empty()) return;
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (!warned.insert(home).second) return;
  HERMES_LOG_WARN(
      "{}: {} entries written by an older version approve whole rules (such as '{}'); they are "
      "kept but no longer approve anything. Approve the individual commands again.",
      allowlist_path(home), approvals.legacy.size(), approvals.legacy.front());
}

// What the ask and allow-list modes ask about when the command is not dangerous.
std::optional<std::string> policy_description(const ApprovalOptions& options,
                                              const std::string& command,
                                              const std::vector<HomeFold>& folds) {
  if (options.mode == ApprovalMode::kAsk)
    return std::string("every command needs approval (ask mode)");
  if (options.mode != ApprovalMode::kAllowlist) return std::nullopt;
  auto unlisted = first_unlisted_program(command, folds, options.allowed_commands);
  if (!unlisted) return std::nullopt;
  return "command not on the allow-list (" + *unlisted + ")";
}

}  // namespace

ApprovalKey approval_key(const std::string& description, const std::string& command) {
  return {description, std::string(trim_ascii(command))};
}

std::string approval_key_text(const ApprovalKey& key) {
  return key.first + ": " + key.second;
}

CommandApprovals load_command_approvals(const std::string& home) {
  CommandApprovals out;
  if (home.empty()) return out;
  auto text = read_whole_file(allowlist_path(home), 4u << 20);
  if (!text.ok()) return out;
  auto json = parse_json(*text);
  if (!json || !json->is_object()) {
    HERMES_LOG_WARN("{} is not a JSON object; it approves nothing", allowlist_path(home));
    return out;
  }
  if (auto legacy = json->find("command_allowlist"); legacy != json->end() && legacy->is_array()) {
    for (const Json& k : *legacy) {
      if (k.is_string()) out.legacy.push_back(k.get<std::string>());
    }
  }
  if (auto approved = json->find("approved_commands");
      approved != json->end() && approved->is_array()) {
    for (const Json& entry : *approved) {
      if (!entry.is_object()) continue;
      auto rule = entry.find("rule");
      auto command = entry.find("command");
      if (rule == entry.end() || command == entry.end() || !rule->is_string() ||
          !command->is_string()) {
        continue;
      }
      out.approved.insert(approval_key(rule->get<std::string>(), command->get<std::string>()));
    }
  }
  return out;
}

Status add_command_approval(const std::string& home, const ApprovalKey& key) {
  if (home.empty()) return Status::failed_precondition("no hermes home to keep approvals in");
  std::lock_guard<std::mutex> lock(allowlist_mutex());
  const std::string path = allowlist_path(home);
  Json doc = Json::object();
  if (auto text = read_whole_file(path, 4u << 20); text.ok()) {
    auto json = parse_json(*text);
    if (json && json->is_object()) doc = std::move(*json);  // Legacy entries stay as they are.
  }
  const CommandApprovals current = load_command_approvals(home);
  if (current.approved.count(key)) return {};
  Json list = Json::array();
  for (const ApprovalKey& k : current.approved) {
    list.push_back({{"rule", k.first}, {"command", k.second}});
  }
  list.push_back({{"rule", key.first}, {"command", key.second}});
  doc["approved_commands"] = std::move(list);
  return write_file_atomically(path, dump_json_pretty(doc) + "\n");
}

ApprovalGate::ApprovalGate(ApprovalOptions options, std::string home)
    : options_(std::move(options)), home_(std::move(home)) {}

const std::string& ApprovalGate::allowlist_home(const ToolContext& ctx) const {
  return home_.empty() ? ctx.home : home_;
}

ApprovalOutcome ApprovalGate::check_command(const std::string& command, ToolContext& ctx) const {
  const auto folds = default_home_folds(allowlist_home(ctx));
  if (CommandFinding hard = detect_hardline(command, folds)) {
    return {false, hardline_message(hard.description), hard.description};
  }
  const std::string normalized = normalize_command_for_detection(command, folds);
  if (is_sudo_password_guess(normalized)) {
    const std::string d = "sudo password guessing via stdin (sudo -S)";
    return {false,
            "BLOCKED: " + d + " is not allowed: no sudo password is configured. " +
                std::string(kDoNotRetry),
            d};
  }
  if (auto rule = matching_deny_rule(options_.deny, normalized)) {
    return {false,
            "BLOCKED: the operator's deny rule '" + *rule + "' forbids this command. " +
                std::string(kDoNotRetry),
            "operator deny rule"};
  }
  if (options_.mode == ApprovalMode::kOff || is_blank(command)) return {true, "", ""};
  if (CommandFinding finding = detect_dangerous(command, folds))
    return decide(command, finding.description, ctx);
  if (auto policy = policy_description(options_, command, folds))
    return decide(command, *policy, ctx);
  return {true, "", ""};
}

ApprovalOutcome ApprovalGate::ask(const std::string& subject, const std::string& description,
                                  ToolContext& ctx) const {
  if (options_.mode == ApprovalMode::kOff) return {true, "", description};
  return decide(subject, description, ctx);
}

ApprovalOutcome ApprovalGate::decide(const std::string& subject, const std::string& description,
                                     ToolContext& ctx) const {
  const ApprovalKey key = approval_key(description, subject);
  std::shared_ptr<SessionApprovals> session;
  if (ctx.state != nullptr)
    session = ctx.state->get_or_create<SessionApprovals>("safety.session_approvals");
  if (session) {
    std::lock_guard<std::mutex> lock(session->mu);
    if (session->keys.count(key)) return {true, "", description};
  }
  const CommandApprovals stored = load_command_approvals(allowlist_home(ctx));
  warn_about_legacy_entries(allowlist_home(ctx), stored);
  if (stored.approved.count(key)) return {true, "", description};

  if (ctx.callbacks == nullptr || !ctx.callbacks->on_approval) {
    return {false, no_channel_message(description), description};
  }
  ApprovalRequest request{subject, description, approval_key_text(key), ctx.tool_name};
  ApprovalDecision decision = ApprovalDecision::kDeny;
  switch (wait_for_human(*ctx.callbacks, request, ctx.cancel, options_.timeout, decision)) {
    case WaitResult::kTimedOut:
      return {false, timeout_message(description, options_.timeout), description};
    case WaitResult::kCancelled:
      return {false,
              "BLOCKED: the turn was interrupted while this command (" + description +
                  ") waited for approval; it did not run.",
              description};
    case WaitResult::kDecided:
      break;
  }
  if (decision == ApprovalDecision::kDeny) return {false, denied_message(description), description};
  if ((decision == ApprovalDecision::kSession || decision == ApprovalDecision::kAlways) &&
      session) {
    std::lock_guard<std::mutex> lock(session->mu);
    session->keys.insert(key);
  }
  if (decision == ApprovalDecision::kAlways) {
    if (Status s = add_command_approval(allowlist_home(ctx), key); !s.ok()) {
      HERMES_LOG_WARN("could not save the permanent approval of '{}': {}", approval_key_text(key),
                      s.message());
    }
  }
  const char* scope = decision == ApprovalDecision::kOnce      ? "once"
                      : decision == ApprovalDecision::kSession ? "for this session"
                                                               : "permanently";
  return {true, "The user approved this command (" + description + ") " + scope + ".", description};
}

}  // namespace hermes::internal

namespace hermes {

std::string_view approval_mode_name(ApprovalMode mode) {
  switch (mode) {
    case ApprovalMode::kManual:
      return "manual";
    case ApprovalMode::kSmart:
      return "smart";
    case ApprovalMode::kOff:
      return "off";
    case ApprovalMode::kAsk:
      return "ask";
    case ApprovalMode::kAllowlist:
      return "allowlist";
  }
  return "manual";
}

std::optional<ApprovalMode> approval_mode_from_name(std::string_view name) {
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff,
                            ApprovalMode::kAsk, ApprovalMode::kAllowlist}) {
    if (internal::iequals(name, approval_mode_name(mode))) return mode;
  }
  return std::nullopt;
}

}  // namespace hermes
