// Running `/bin/sh -c COMMAND` in its own process group, with stdout and stderr on one
// pipe, and stopping the whole group: SIGTERM, a grace period, then SIGKILL.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "hermes/builtin_tools.hpp"
#include "hermes/cancel.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

struct ShellCommand {
  std::string command;
  std::string workdir;
  std::vector<std::string> environment;  // Complete, as NAME=value.
};

// The environment commands run with: the process's own without its secrets (when
// inherited; see is_secret_env), pagers disabled so nothing waits for a keypress, then
// the configured variables.
std::vector<std::string> command_environment(const TerminalOptions& options);

struct ChildProcess {
  pid_t pid = -1;      // Also the process group id.
  int output_fd = -1;  // Read end of stdout+stderr, non-blocking.
  int input_fd = -1;   // Write end of stdin, or -1 when stdin is /dev/null.
};

// Starts the command. IoError when the pipes or the fork fail.
Result<ChildProcess> spawn_shell(const ShellCommand& cmd, bool with_stdin);

// Stops the child's process group: SIGTERM, up to `grace` for it to exit, then SIGKILL.
// Reaps the child unless `reaped`. Returns the child's wait status when this call reaped
// it, else `status`.
int stop_process_group(pid_t pid, std::chrono::milliseconds grace, bool reaped, int status);

// The shell-style exit code of a wait status: the exit status, or 128 + the signal.
int exit_code_of(int wait_status);

struct ForegroundResult {
  std::string output;  // Within the budget (head and tail kept).
  std::size_t total_bytes = 0;
  int exit_code = -1;
  bool timed_out = false;
  bool cancelled = false;
};

// Runs the command to completion, the timeout, or cancellation, whichever comes first,
// keeping at most `output_budget` bytes of output.
Result<ForegroundResult> run_foreground(const ShellCommand& cmd, std::chrono::milliseconds timeout,
                                        const CancelToken& cancel, std::size_t output_budget,
                                        std::chrono::milliseconds kill_grace);

}  // namespace hermes::internal
