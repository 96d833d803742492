// A child process with its stdin, stdout and stderr connected to pipes, in a process
// group of its own so that stopping it also stops whatever it started (npx, shells).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::internal {

struct ChildProcessOptions {
  std::string command;  // Looked up in PATH (the child's PATH) when it has no '/'.
  std::vector<std::string> args;
  // Added to (overriding) this process's environment, of which the secrets are left out
  // (is_secret_env) except those named in `env_passthrough`.
  std::map<std::string, std::string> env;
  std::string cwd;  // Empty: this process's.
  std::vector<std::string> env_passthrough;
};

// Thread-safety: one owner. The pipe descriptors may be read and written from other
// threads while the owner waits.
class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts the process. A program that cannot be executed (not found, not executable,
  // bad cwd) is reported here, with the reason, rather than as an early exit.
  Status spawn(const ChildProcessOptions& options);

  int stdin_fd() const { return stdin_fd_; }
  int stdout_fd() const { return stdout_fd_; }
  int stderr_fd() const { return stderr_fd_; }
  pid_t pid() const { return pid_; }

  // Closes our end of the child's stdin (a stdio server takes that as "exit").
  void close_stdin();

  // Waits up to `timeout` for the child to exit; true when it has (and was reaped).
  bool wait_for_exit(std::chrono::milliseconds timeout);
  // Asks the process group to stop (SIGTERM), then kills it (SIGKILL) if it has not
  // exited after `grace`. Reaps the child.
  void stop(std::chrono::milliseconds grace);

  // "exited with status 3", "was killed by signal 9", or "is running".
  std::string describe_exit() const;

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int wait_status_ = 0;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
};

}  // namespace hermes::internal
