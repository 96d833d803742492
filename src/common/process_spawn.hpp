// Starting a child process: fork and exec with the care a library inside someone else's
// process needs. The one spawner of the library (the terminal tool's shell and the MCP
// stdio servers both start their children here).
#pragma once

#include <sys/types.h>

#include "hermes/status.hpp"

namespace hermes::internal {

struct SpawnRequest {
  const char* path = nullptr;         // The program; no PATH search.
  const char* const* argv = nullptr;  // nullptr-terminated.
  const char* const* envp = nullptr;  // nullptr-terminated; the whole environment.
  const char* cwd = nullptr;          // nullptr or "": this process's.
  int stdin_fd = -1;                  // What the child gets as fds 0, 1 and 2.
  int stdout_fd = -1;
  int stderr_fd = -1;
  // How a child that cannot enter `cwd` or exec `path` fails. kReported: spawn_process
  // returns the error (and has reaped the child). kExitCode: as a shell does, a line on
  // the child's stderr and exit status 126 (cwd) or 127 (exec).
  enum class Failure { kReported, kExitCode } failure = Failure::kReported;
};

// Starts the child in a process group of its own (its pid is the group id). In the child,
// before exec: every signal back to its default action and none blocked (the host's
// handlers and mask are not the child's), fds 0-2 from the request, every other fd
// closed. Signals are blocked in the calling thread across fork, so no host handler runs
// in the child. IoError when fork fails; with Failure::kReported, NotFound naming the
// directory or IoError naming the program when the child could not start.
Result<pid_t> spawn_process(const SpawnRequest& request);

}  // namespace hermes::internal
