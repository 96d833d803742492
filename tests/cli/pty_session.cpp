#include "cli/pty_session.hpp"

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace hermes::testing {
namespace {

// Drops CSI escape sequences and carriage returns, which only move the cursor.
std::string strip_escapes(const std::string& raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
      i += 2;
      while (i < raw.size() && !(raw[i] >= '@' && raw[i] <= '~')) ++i;
      continue;
    }
    if (raw[i] != '\r') out += raw[i];
  }
  return out;
}

}  // namespace

PtySession::PtySession(const std::string& program, const std::vector<std::string>& args,
                       const std::map<std::string, std::string>& env) {
  std::vector<std::string> env_text;
  for (const auto& [k, v] : env) env_text.push_back(k + "=" + v);
  if (env.count("PATH") == 0 && std::getenv("PATH") != nullptr)
    env_text.push_back(std::string("PATH=") + std::getenv("PATH"));
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_text = {program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  winsize size{};
  size.ws_row = 50;
  size.ws_col = 200;
  pid_ = forkpty(&master_, nullptr, nullptr, &size);
  if (pid_ < 0) throw std::runtime_error("forkpty failed");
  if (pid_ == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(program.c_str(), argv.data(), envp.data());
    _exit(127);
  }
}

PtySession::~PtySession() {
  if (!exit_status_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  if (master_ >= 0) close(master_);
}

void PtySession::send_line(const std::string& line) {
  const std::string text = line + "\n";
  [[maybe_unused]] ssize_t n = write(master_, text.data(), text.size());
}

void PtySession::send_keys(const std::string& keys) {
  [[maybe_unused]] ssize_t n = write(master_, keys.data(), keys.size());
}

void PtySession::send_ctrl_c() {
  [[maybe_unused]] ssize_t n = write(master_, "\x03", 1);
}

void PtySession::send_ctrl_d() {
  [[maybe_unused]] ssize_t n = write(master_, "\x04", 1);
}

bool PtySession::pump(std::chrono::milliseconds wait) {
  pollfd fd{master_, POLLIN, 0};
  int ready = poll(&fd, 1, static_cast<int>(wait.count()));
  if (ready <= 0) return ready == 0 || errno == EINTR;
  char buf[4096];
  ssize_t n = read(master_, buf, sizeof buf);
  if (n <= 0) return false;  // EIO: the program's side of the terminal closed.
  raw_.append(buf, static_cast<std::size_t>(n));
  screen_ = strip_escapes(raw_);
  return true;
}

bool PtySession::expect(const std::string& text, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto at = screen_.find(text, cursor_); at != std::string::npos) {
      cursor_ = at + text.size();
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    if (!pump(std::chrono::milliseconds(100))) {
      auto at = screen_.find(text, cursor_);
      if (at == std::string::npos) return false;
      cursor_ = at + text.size();
      return true;
    }
  }
}

std::optional<int> PtySession::wait_exit(std::chrono::seconds timeout) {
  if (exit_status_) return exit_status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      while (pump(std::chrono::milliseconds(0)) && !raw_.empty()) {
        pollfd fd{master_, POLLIN, 0};
        if (poll(&fd, 1, 0) <= 0) break;
      }
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_status_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    pump(std::chrono::milliseconds(50));
  }
}

}  // namespace hermes::testing
