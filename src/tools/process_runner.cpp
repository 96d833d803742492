#include "tools/process_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <thread>

#include "common/process_spawn.hpp"
#include "safety/secret_env.hpp"
#include "tools/output_buffer.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

// Output that arrives after the shell exits comes from its background children; they get
// this long to finish writing before the group is stopped.
constexpr std::chrono::milliseconds kStragglerGrace{200};

std::string errno_text() {
  return std::strerror(errno);
}

// Reads what is available on a non-blocking fd. False at end of file.
bool drain(int fd, HeadTailBuffer& out) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(std::string_view(buf, static_cast<std::size_t>(n)));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

}  // namespace

std::vector<std::string> command_environment(const TerminalOptions& options) {
  std::map<std::string, std::string> env;
  if (options.inherit_environment) env = inherited_environment(options.env_passthrough);
  env.emplace("PAGER", "cat");
  env.emplace("GIT_PAGER", "cat");
  env.emplace("GIT_TERMINAL_PROMPT", "0");
  for (const auto& [k, v] : options.environment) env[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

Result<ChildProcess> spawn_shell(const ShellCommand& cmd, bool with_stdin) {
  int out[2];
  int in[2] = {-1, -1};
  if (::pipe2(out, O_CLOEXEC) != 0)
    return Status::io_error("cannot create a pipe: " + errno_text());
  const int devnull = with_stdin ? -1 : ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (with_stdin && ::pipe2(in, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return Status::io_error("cannot create a pipe: " + errno_text());
  }
  const char* argv[] = {"sh", "-c", cmd.command.c_str(), nullptr};
  std::vector<const char*> envp;
  for (const std::string& e : cmd.environment) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  SpawnRequest request;
  request.path = "/bin/sh";
  request.argv = argv;
  request.envp = envp.data();
  request.cwd = cmd.workdir.c_str();
  request.stdin_fd = with_stdin ? in[0] : devnull;
  request.stdout_fd = out[1];
  request.stderr_fd = out[1];
  request.failure = SpawnRequest::Failure::kExitCode;  // A missing workdir is the shell's 126.
  auto pid = spawn_process(request);
  ::close(out[1]);
  if (with_stdin) ::close(in[0]);
  if (devnull >= 0) ::close(devnull);
  if (!pid.ok()) {
    ::close(out[0]);
    if (with_stdin) ::close(in[1]);
    return pid.status();
  }
  ::fcntl(out[0], F_SETFL, ::fcntl(out[0], F_GETFL) | O_NONBLOCK);
  return ChildProcess{*pid, out[0], with_stdin ? in[1] : -1};
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

int stop_process_group(pid_t pid, std::chrono::milliseconds grace, bool reaped, int status) {
  ::kill(-pid, SIGTERM);
  const auto deadline = Clock::now() + grace;
  while (Clock::now() < deadline) {
    if (!reaped) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      reaped = r == pid || (r < 0 && errno == ECHILD);  // ECHILD: another thread reaped it.
    }
    if (reaped && ::kill(-pid, 0) != 0 && errno == ESRCH)
      return status;  // The whole group is gone.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(-pid, SIGKILL);
  if (!reaped) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  return status;
}

Result<ForegroundResult> run_foreground(const ShellCommand& cmd, std::chrono::milliseconds timeout,
                                        const CancelToken& cancel, std::size_t output_budget,
                                        std::chrono::milliseconds kill_grace) {
  auto child = spawn_shell(cmd, false);
  if (!child.ok()) return child.status();
  HeadTailBuffer output(output_budget);
  ForegroundResult result;
  const auto deadline = Clock::now() + timeout;
  std::optional<Clock::time_point> exited_at;
  int status = 0;
  bool open = true;
  for (;;) {
    if (open) {
      pollfd pfd{child->output_fd, POLLIN, 0};
      ::poll(&pfd, 1, 50);
      open = drain(child->output_fd, output);
    } else {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(5));  // Output is done; the exit is not.
    }
    if (!exited_at && ::waitpid(child->pid, &status, WNOHANG) == child->pid)
      exited_at = Clock::now();
    if (!open && exited_at) break;
    if (cancel.cancelled() || Clock::now() >= deadline ||
        (exited_at && Clock::now() - *exited_at > kStragglerGrace)) {
      result.cancelled = cancel.cancelled();
      result.timed_out = !result.cancelled && !exited_at && Clock::now() >= deadline;
      status = stop_process_group(child->pid, exited_at ? std::chrono::milliseconds(0) : kill_grace,
                                  exited_at.has_value(), status);
      drain(child->output_fd, output);
      exited_at = exited_at.value_or(Clock::now());
      break;
    }
  }
  ::close(child->output_fd);
  if (exited_at && !result.timed_out && !result.cancelled)
    ::kill(-child->pid, SIGKILL);  // Stray children.
  result.exit_code = exit_code_of(status);
  result.total_bytes = output.total();
  result.output = output.text();
  return result;
}

}  // namespace hermes::internal
