#include "common/process_spawn.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace hermes::internal {
namespace {

// What the child writes to the report pipe when it cannot start.
struct ChildFailure {
  int stage;  // 0: chdir, 1: exec.
  int error;
};

// The fd the report pipe gets in the child: above 0-2, below everything closed.
constexpr int kReportFd = 3;

void close_fds_from(int first) {
#if defined(SYS_close_range)
  if (::syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  const long max = ::sysconf(_SC_OPEN_MAX);
  for (int fd = first; fd < (max > 0 && max < 65536 ? max : 65536); ++fd) ::close(fd);
}

// After fork: only async-signal-safe calls until exec.
[[noreturn]] void run_child(const SpawnRequest& r, int report) {
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &defaults, nullptr);
  ::setpgid(0, 0);
  ::dup2(r.stdin_fd, STDIN_FILENO);
  ::dup2(r.stdout_fd, STDOUT_FILENO);
  ::dup2(r.stderr_fd, STDERR_FILENO);
  if (report >= 0) {
    ::dup2(report, kReportFd);
    ::fcntl(kReportFd, F_SETFD, FD_CLOEXEC);  // Closed by a successful exec.
  }
  close_fds_from(report >= 0 ? kReportFd + 1 : kReportFd);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ChildFailure failure{0, 0};
  if (r.cwd != nullptr && r.cwd[0] != '\0' && ::chdir(r.cwd) != 0) {
    failure = {0, errno};
    if (report < 0) {
      static const char kMsg[] = "hermes: cannot enter the working directory\n";
      (void)!::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
      ::_exit(126);
    }
  } else {
    ::execve(r.path, const_cast<char* const*>(r.argv), const_cast<char* const*>(r.envp));
    failure = {1, errno};
  }
  if (report >= 0) (void)!::write(kReportFd, &failure, sizeof failure);
  ::_exit(127);
}

}  // namespace

Result<pid_t> spawn_process(const SpawnRequest& request) {
  if (request.path == nullptr || request.argv == nullptr || request.envp == nullptr) {
    return Status::invalid_argument("spawn_process: no program, arguments or environment");
  }
  const bool reported = request.failure == SpawnRequest::Failure::kReported;
  int report[2] = {-1, -1};
  if (reported && ::pipe2(report, O_CLOEXEC) != 0) {
    return Status::io_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t pid = ::fork();
  if (pid == 0) run_child(request, report[1]);
  const int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (report[1] >= 0) ::close(report[1]);
  if (pid < 0) {
    if (report[0] >= 0) ::close(report[0]);
    return Status::io_error(std::string("cannot start '") + request.path +
                            "': " + std::strerror(fork_errno));
  }
  ::setpgid(pid, pid);  // Also done by the child; whichever runs first wins the race.
  if (!reported) return pid;
  ChildFailure failure{};
  ssize_t n;
  do {
    n = ::read(report[0], &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n != static_cast<ssize_t>(sizeof failure)) return pid;  // Exec closed the pipe.
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (failure.stage == 0) {
    return Status::not_found(std::string("cannot change to directory '") + request.cwd +
                             "': " + std::strerror(failure.error));
  }
  return Status::io_error(std::string("cannot run '") + request.path +
                          "': " + std::strerror(failure.error));
}

}  // namespace hermes::internal
