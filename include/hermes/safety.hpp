// hermes/safety.hpp — the shell command guards: which commands are dangerous, which may
// never run, and how the terminal tool asks a human before running a dangerous one.
//
// Before the terminal tool runs anything, the command is normalised (escape codes, NUL
// bytes, fullwidth letters, `r\m`, `${IFS}` and line continuations folded away) and
// checked twice:
//   1. the hardline floor: unrecoverable commands (root wipe, mkfs, raw disk writes, fork
//      bomb, shutdown, kill -1). They never run, whatever the approval mode.
//   2. the dangerous table: recursive deletes, world-writable permissions, SQL drops,
//      pipe-to-shell, writes to credential files, git history rewrites, killing the host
//      process, ... They run only if a human approves through Callbacks::on_approval.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"

namespace hermes {

// The verdict of a command check.
struct CommandFinding {
  bool found = false;
  // Why the command matched, e.g. "recursive delete". For dangerous commands this is
  // also the key an approval for the session or for always is remembered under.
  std::string description;

  explicit operator bool() const { return found; }
};

// Whether `command` needs a human's approval, and why. Pure: no state, no I/O beyond
// reading $HOME and $HERMES_HOME (absolute home paths are matched like `~`).
// Thread-safe.
HERMES_API CommandFinding detect_dangerous_command(std::string_view command);

// Whether `command` is on the hardline list that no approval mode can bypass.
// Thread-safe.
HERMES_API CommandFinding detect_hardline_command(std::string_view command);

// How dangerous commands are approved.
enum class ApprovalMode {
  // Ask a human through Callbacks::on_approval; without the callback, deny.
  kManual,
  // Upstream asks an auxiliary "guardian" model first and escalates to a human when it is
  // unsure. hermes has no auxiliary model wired to the guard yet, so smart behaves
  // exactly like manual: every dangerous command goes to the human.
  kSmart,
  // Run dangerous commands without asking. The hardline floor and `deny` still apply.
  kOff,
};

struct ApprovalOptions {
  ApprovalMode mode = ApprovalMode::kManual;
  // How long to wait for the human; silence is a denial.
  std::chrono::milliseconds timeout = std::chrono::seconds(300);
  // Operator rules (Python-syntax regular expressions, matched case-insensitively against
  // the normalised command) that block a command in every mode.
  std::vector<std::string> deny;
};

}  // namespace hermes
