// The approval gate in front of the terminal tool and of what process_manage writes to a
// background process: floors that nothing bypasses, then the dangerous-command check (and,
// in the ask and allow-list modes, the mode's own policy) and, when it asks, a human
// decision through Callbacks::on_approval (once / session / always / deny; no answer is
// a denial).
#pragma once

#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hermes/safety.hpp"
#include "hermes/tool.hpp"

namespace hermes::internal {

struct ApprovalOutcome {
  bool approved = false;
  // Denied: the BLOCKED text for the model. Approved after asking: a short note saying so.
  std::string message;
  std::string description;  // The finding that needed approval, if any.
};

// What an approval for the session or for always covers: one rule's finding on one
// command, exactly as the human saw it (trimmed). Approving `rm -r build` approves that
// command again, never `rm -r /home/x`, which only shares the rule.
using ApprovalKey = std::pair<std::string, std::string>;  // {rule description, command}

ApprovalKey approval_key(const std::string& description, const std::string& command);

// The key as ApprovalRequest::pattern_key shows it: "description: command".
std::string approval_key_text(const ApprovalKey& key);

// Keys approved "for the session" by one agent; kept in its ToolSessionState.
struct SessionApprovals {
  std::mutex mu;
  std::set<ApprovalKey> keys;
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

// The permanent approvals, `<home>/command_allowlist.json`:
//   {"approved_commands": [{"rule": "...", "command": "..."}, ...],
//    "command_allowlist": ["recursive delete", ...]}
// `command_allowlist` is what older versions wrote: whole rule descriptions. Such entries
// are read (a malformed file or entry is skipped, never fatal) and kept in the file, but
// approve nothing: each would approve every command its rule matches.
struct CommandApprovals {
  std::set<ApprovalKey> approved;
  std::vector<std::string> legacy;  // Entries of the old `command_allowlist` list.
};
CommandApprovals load_command_approvals(const std::string& home);
Status add_command_approval(const std::string& home, const ApprovalKey& key);

}  // namespace hermes::internal
