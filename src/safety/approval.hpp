// The approval gate in front of the terminal tool: floors that nothing bypasses, then the
// dangerous-command check and, for a match, a human decision through
// Callbacks::on_approval (once / session / always / deny; no answer is a denial).
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "hermes/safety.hpp"
#include "hermes/tool.hpp"

namespace hermes::internal {

struct ApprovalOutcome {
  bool approved = false;
  // Denied: the BLOCKED text for the model. Approved after asking: a short note saying so.
  std::string message;
  std::string description;  // The finding that needed approval, if any.
};

// Pattern keys approved "for the session" by one agent; kept in its ToolSessionState.
struct SessionApprovals {
  std::mutex mu;
  std::set<std::string> keys;
};

class ApprovalGate {
 public:
  ApprovalGate(ApprovalOptions options, std::string home);

  // Decides whether `command` may run. Blocks while a human decides (at most the
  // configured timeout; an interrupted turn stops the wait at once).
  ApprovalOutcome check_command(const std::string& command, ToolContext& ctx) const;

  // Asks the human about a non-command action (a write to an approval-gated path).
  ApprovalOutcome ask(const std::string& subject, const std::string& description,
                      ToolContext& ctx) const;

 private:
  ApprovalOutcome decide(const std::string& subject, const std::string& description,
                         ToolContext& ctx) const;
  const std::string& allowlist_home(const ToolContext& ctx) const;

  ApprovalOptions options_;
  std::string home_;  // Where "always" approvals are stored; empty: the tool context's home.
};

// The permanent allowlist, `<home>/command_allowlist.json`.
std::set<std::string> load_command_allowlist(const std::string& home);
Status add_to_command_allowlist(const std::string& home, const std::string& key);

}  // namespace hermes::internal
