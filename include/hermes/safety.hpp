// hermes/safety.hpp — the shell command guards: which commands are dangerous, which may
// never run, and how the terminal tool asks a human before running a dangerous one.
//
// WHAT THIS IS, AND WHAT IT IS NOT. The guard is a best-effort check of command text,
// written to catch an agent's mistakes and the common tricks of a prompt injection. It is
// not a sandbox. A shell is a programming language: a command can build another at run
// time (from files, the network, the output of other programs) in ways no reading of its
// text can follow, and the guard lets through whatever it does not recognise as harmful
// unless the allow-list or ask mode is chosen. Tools run with the full rights of the
// process that hosts hermes. Where a mistake would be costly, run hermes (or just its
// tools) inside a real boundary:
//   - a container or VM that sees only the project directory, e.g.
//       docker run --rm -it --network=none -v "$PWD:/work" -w /work image hermes-app
//     (drop --network=none if the model must reach the network);
//   - a separate, unprivileged user that owns only the project and has no SSH keys,
//     cloud credentials or hermes home of yours (`sudo -u hermes-runner ...`);
//   - and the approval modes below as the second line, not the first.
//
// Before the terminal tool runs a command, and before any bytes are written to the stdin
// of a background process (process_manage write/submit), the text is normalised (escape
// codes, NUL bytes, fullwidth letters, `r\m`, `$'\x72\x6d'`, `${IFS}` and line
// continuations folded away) and checked twice:
//   1. the hardline floor: unrecoverable commands (root wipe, mkfs, raw disk writes, fork
//      bomb, shutdown, kill -1). They never run, whatever the approval mode.
//   2. the dangerous table: recursive deletes, world-writable permissions, SQL drops,
//      pipe-to-shell, git history rewrites, killing the host process, ...; commands whose
//      program is hidden (a variable or ANSI-C string as the command word, eval of
//      computed text, a script piped or redirected into an interpreter, awk system());
//      commands behind wrappers (timeout, nohup, xargs, watch, find -exec, env, nice, ...)
//      are checked as if run directly; writes by any command to hermes' own state (its
//      home, state.db, config, the approval allowlist), ~/.ssh, shell start-up files and
//      credentials files; and the environment or such files sent to the network. They
//      run only if a human approves through Callbacks::on_approval.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"

namespace hermes {

// The verdict of a command check.
struct CommandFinding {
  bool found = false;
  // Why the command matched, e.g. "recursive delete". An approval for the session or for
  // always is remembered for this description together with the exact command.
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

// How commands are approved. In every mode the hardline floor, sudo password guessing and
// ApprovalOptions::deny refuse first, and everything also applies to what is written to a
// background process's stdin.
enum class ApprovalMode {
  // Ask a human through Callbacks::on_approval about dangerous commands; without the
  // callback, deny them. Other commands run.
  kManual,
  // Upstream asks an auxiliary "guardian" model first and escalates to a human when it is
  // unsure. hermes has no auxiliary model wired to the guard yet, so smart behaves
  // exactly like manual: every dangerous command goes to the human.
  kSmart,
  // Run dangerous commands without asking. The hardline floor and `deny` still apply.
  kOff,
  // Default-deny: ask the human about every command, dangerous or not.
  kAsk,
  // Default-deny with exceptions: a command runs without asking only when every program
  // it runs (wrappers such as sudo or timeout included; in pipelines, $(...), sh -c and
  // eval payloads, find -exec) is named in ApprovalOptions::allowed_commands and it is not
  // dangerous. Anything else, including a program named by a variable, asks.
  kAllowlist,
};

// "manual", "smart", "off", "ask", "allowlist".
HERMES_API std::string_view approval_mode_name(ApprovalMode mode);
// The mode of that name (case-insensitive), or nullopt.
HERMES_API std::optional<ApprovalMode> approval_mode_from_name(std::string_view name);

struct ApprovalOptions {
  ApprovalMode mode = ApprovalMode::kManual;
  // How long to wait for the human; silence is a denial.
  std::chrono::milliseconds timeout = std::chrono::seconds(300);
  // Operator rules (Python-syntax regular expressions, matched case-insensitively against
  // the normalised command) that block a command in every mode.
  std::vector<std::string> deny;
  // kAllowlist: the programs that may run without asking, by base name ("ls", "git",
  // "grep"; a path is reduced to its base name; case-insensitive). Ignored in other modes.
  std::vector<std::string> allowed_commands;
};

}  // namespace hermes
