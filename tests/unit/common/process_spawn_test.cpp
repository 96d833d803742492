// spawn_process: the library's one fork/exec, used by the terminal tool and MCP stdio servers.
#include "common/process_spawn.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

using namespace hermes::internal;

namespace {

// Runs `script` under /bin/sh with its output on a pipe; returns the output and the status.
struct Run {
  std::string output;
  int status = -1;
};

Run run_shell(const char* script, const char* cwd = nullptr,
              SpawnRequest::Failure failure = SpawnRequest::Failure::kExitCode) {
  int out[2];
  REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const char* argv[] = {"sh", "-c", script, nullptr};
  const char* envp[] = {"PATH=/usr/bin:/bin", "HERMES_SPAWN_TEST=yes", nullptr};
  SpawnRequest r;
  r.path = "/bin/sh";
  r.argv = argv;
  r.envp = envp;
  r.cwd = cwd;
  r.stdin_fd = devnull;
  r.stdout_fd = out[1];
  r.stderr_fd = out[1];
  r.failure = failure;
  auto pid = spawn_process(r);
  ::close(out[1]);
  ::close(devnull);
  REQUIRE(pid.ok());
  Run run;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(out[0], buf, sizeof buf)) > 0)
    run.output.append(buf, static_cast<std::size_t>(n));
  ::close(out[0]);
  REQUIRE(::waitpid(*pid, &run.status, 0) == *pid);
  return run;
}

}  // namespace

TEST_CASE("the child runs with the given arguments, environment and directory") {
  const Run run = run_shell("echo \"$HERMES_SPAWN_TEST\"; pwd", "/");
  CHECK(run.output == "yes\n/\n");
  CHECK(WIFEXITED(run.status));
  CHECK(WEXITSTATUS(run.status) == 0);
}

TEST_CASE("the child is the leader of a process group of its own") {
  const Run run = run_shell("cut -d' ' -f5 /proc/$$/stat; echo $$");
  const std::size_t newline = run.output.find('\n');
  REQUIRE(newline != std::string::npos);
  CHECK(run.output.substr(0, newline) + "\n" == run.output.substr(newline + 1));
}

TEST_CASE("the child inherits no descriptor beyond 0, 1 and 2") {
  // Not close-on-exec, and above 3: `ls` in the child opens its directory as the lowest
  // free descriptor, which would look like the stray one when that is 3.
  const int opened = ::open("/dev/null", O_RDONLY);
  REQUIRE(opened > 2);
  const int stray = ::fcntl(opened, F_DUPFD, 10);
  ::close(opened);
  REQUIRE(stray >= 10);
  const Run run = run_shell("ls /proc/self/fd | sort -n | tr '\\n' ' '");
  ::close(stray);
  CHECK(run.output.find(" " + std::to_string(stray) + " ") == std::string::npos);
}

TEST_CASE("the host's ignored signals are not ignored in the child") {
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGTERM, &ignore, &previous);
  const Run run = run_shell("kill -TERM $$; sleep 5");
  ::sigaction(SIGTERM, &previous, nullptr);
  CHECK(WIFSIGNALED(run.status));
  CHECK(WTERMSIG(run.status) == SIGTERM);
}

TEST_CASE("with Failure::kExitCode a missing directory is exit 126 with a line, as a shell") {
  const Run run = run_shell("echo never", "/no/such/directory/here");
  CHECK(WEXITSTATUS(run.status) == 126);
  CHECK(run.output == "hermes: cannot enter the working directory\n");
}

TEST_CASE("with Failure::kReported a missing directory or program is an error naming it") {
  const char* argv[] = {"x", nullptr};
  const char* envp[] = {nullptr};
  SpawnRequest r;
  r.path = "/bin/true";
  r.argv = argv;
  r.envp = envp;
  r.stdin_fd = r.stdout_fd = r.stderr_fd = STDERR_FILENO;
  r.cwd = "/no/such/directory/here";
  auto missing_dir = spawn_process(r);
  REQUIRE_FALSE(missing_dir.ok());
  CHECK(missing_dir.status().code() == hermes::StatusCode::kNotFound);
  CHECK(missing_dir.status().message().find("/no/such/directory/here") != std::string::npos);

  r.cwd = nullptr;
  r.path = "/no/such/program";
  auto missing_program = spawn_process(r);
  REQUIRE_FALSE(missing_program.ok());
  CHECK(missing_program.status().message().find("cannot run '/no/such/program'") !=
        std::string::npos);

  r.path = nullptr;
  CHECK_FALSE(spawn_process(r).ok());
}
