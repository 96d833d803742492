#include "input_events.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>

#include "line_editor.hpp"

namespace hermes_cli {

InputEvents::InputEvents() {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  signal_fd_ = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
    wake_read_ = fds[0];
    wake_write_ = fds[1];
  }
}

InputEvents::~InputEvents() {
  for (int fd : {signal_fd_, wake_read_, wake_write_}) {
    if (fd >= 0) close(fd);
  }
}

void InputEvents::wake() {
  const char byte = 1;
  // A full pipe already holds a pending wake-up; nothing is lost.
  [[maybe_unused]] ssize_t n = write(wake_write_, &byte, 1);
}

InputEvents::Event InputEvents::next() {
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return {Kind::kLine, std::move(line)};
    }
    pollfd fds[3] = {{signal_fd_, POLLIN, 0},
                     {wake_read_, POLLIN, 0},
                     {input_open_ ? STDIN_FILENO : -1, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      return {Kind::kEndOfInput, {}};
    }
    if (fds[0].revents & POLLIN) {
      signalfd_siginfo info;
      while (read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      }
      return {Kind::kInterrupt, {}};
    }
    if (fds[1].revents & POLLIN) {
      char drain[64];
      while (read(wake_read_, drain, sizeof drain) > 0) {
      }
      return {Kind::kWake, {}};
    }
    if ((fds[2].revents & (POLLIN | POLLHUP | POLLERR)) && editor_ != nullptr &&
        editor_->active()) {
      std::optional<std::string> line = editor_->feed();
      if (editor_->end_of_input()) {
        editor_->put_away();
        input_open_ = false;
        return {Kind::kEndOfInput, {}};
      }
      if (!line) continue;
      // Until the next prompt the terminal is in its normal line mode.
      editor_->put_away();
      return {Kind::kLine, std::move(*line)};
    }
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) {
      char chunk[4096];
      ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      input_open_ = false;
      if (!buffer_.empty()) {
        std::string rest = std::move(buffer_);
        buffer_.clear();
        return {Kind::kLine, std::move(rest)};
      }
      return {Kind::kEndOfInput, {}};
    }
  }
}

}  // namespace hermes_cli
