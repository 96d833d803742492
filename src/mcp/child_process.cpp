#include "mcp/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "common/process_spawn.hpp"
#include "safety/secret_env.hpp"

namespace hermes::internal {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

struct Pipe {
  int read = -1;
  int write = -1;
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
  bool open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
};

std::map<std::string, std::string> merged_environment(const ChildProcessOptions& options) {
  std::map<std::string, std::string> env = inherited_environment(options.env_passthrough);
  for (const auto& [k, v] : options.env) env[k] = v;
  return env;
}

// Resolved before fork(): the child may only make async-signal-safe calls.
std::string resolve_program(const std::string& command,
                            const std::map<std::string, std::string>& env) {
  if (command.find('/') != std::string::npos) return command;
  auto it = env.find("PATH");
  const std::string path = it != env.end() ? it->second : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + command;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_) stop(std::chrono::milliseconds(500));
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
  close_fd(stderr_fd_);
}

Status ChildProcess::spawn(const ChildProcessOptions& options) {
  if (options.command.empty()) return Status::invalid_argument("command is empty");
  const auto env = merged_environment(options);
  const std::string program = resolve_program(options.command, env);
  if (program.empty())
    return Status::not_found("cannot run '" + options.command + "': not found in PATH");

  std::vector<std::string> env_entries;
  for (const auto& [k, v] : env) env_entries.push_back(k + "=" + v);
  std::vector<const char*> envp;
  for (const auto& e : env_entries) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings{options.command};
  arg_strings.insert(arg_strings.end(), options.args.begin(), options.args.end());
  std::vector<const char*> argv;
  for (const auto& a : arg_strings) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open()) {
    return Status::io_error(std::string("cannot create pipes: ") + std::strerror(errno));
  }
  SpawnRequest request;
  request.path = program.c_str();
  request.argv = argv.data();
  request.envp = envp.data();
  request.cwd = options.cwd.empty() ? nullptr : options.cwd.c_str();
  request.stdin_fd = in.read;
  request.stdout_fd = out.write;
  request.stderr_fd = err.write;
  auto pid = spawn_process(request);  // Failure::kReported: a bad cwd or program is an error.
  if (!pid.ok()) return pid.status();
  pid_ = *pid;
  reaped_ = false;
  stdin_fd_ = in.write;
  stdout_fd_ = out.read;
  stderr_fd_ = err.read;
  in.write = out.read = err.read = -1;
  return {};
}

void ChildProcess::close_stdin() {
  close_fd(stdin_fd_);
}

bool ChildProcess::wait_for_exit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0 || reaped_) return true;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      reaped_ = true;
      wait_status_ = status;
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGTERM);
  if (wait_for_exit(grace)) {
    ::kill(-pid_, SIGKILL);  // Whatever the server started and left behind.
    return;
  }
  ::kill(-pid_, SIGKILL);
  wait_for_exit(std::chrono::milliseconds(5000));
}

std::string ChildProcess::describe_exit() const {
  if (!reaped_) return "is running";
  if (WIFEXITED(wait_status_))
    return "exited with status " + std::to_string(WEXITSTATUS(wait_status_));
  if (WIFSIGNALED(wait_status_))
    return "was killed by signal " + std::to_string(WTERMSIG(wait_status_));
  return "exited";
}

}  // namespace hermes::internal
