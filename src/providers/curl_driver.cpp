#include "providers/curl_driver.hpp"

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#ifdef __linux__
#  include <sys/epoll.h>
#  include <sys/eventfd.h>
#  include <unistd.h>
#endif

namespace hermes::internal {

#ifdef __linux__

namespace {
constexpr int kMaxEvents = 256;
}

CurlDriver::CurlDriver(CURLM* multi) : multi_(multi) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = wake_fd_;
  if (epoll_fd_ < 0 || wake_fd_ < 0 || epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &event) != 0) {
    if (epoll_fd_ >= 0) close(epoll_fd_);
    if (wake_fd_ >= 0) close(wake_fd_);
    throw std::runtime_error("the I/O loop could not set up epoll");
  }
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlDriver::on_socket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlDriver::on_timer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
}

CurlDriver::~CurlDriver() {
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, nullptr);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, nullptr);
  close(epoll_fd_);
  close(wake_fd_);
}

int CurlDriver::on_socket(CURL*, curl_socket_t socket, int what, void* self, void*) {
  auto* driver = static_cast<CurlDriver*>(self);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(driver->epoll_fd_, EPOLL_CTL_DEL, socket, nullptr);  // Gone already is fine.
    return 0;
  }
  epoll_event event{};
  event.data.fd = socket;
  if (what & CURL_POLL_IN) event.events |= EPOLLIN;
  if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
  if (epoll_ctl(driver->epoll_fd_, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
    epoll_ctl(driver->epoll_fd_, EPOLL_CTL_ADD, socket, &event);
  }
  return 0;
}

int CurlDriver::on_timer(CURLM*, long timeout_ms, void* self) {
  auto* driver = static_cast<CurlDriver*>(self);
  if (timeout_ms < 0) {
    driver->curl_due_.reset();
  } else {
    driver->curl_due_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  }
  return 0;
}

void CurlDriver::perform() {
  int running = 0;
  std::vector<std::pair<curl_socket_t, int>> ready;
  ready.swap(ready_);
  for (const auto& [socket, flags] : ready) {
    curl_multi_socket_action(multi_, socket, flags, &running);
  }
  if (curl_due_ && *curl_due_ <= std::chrono::steady_clock::now()) {
    curl_due_.reset();  // The action may set the next one.
    curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
  }
}

void CurlDriver::wait(long timeout_ms) {
  if (curl_due_) {
    const auto until_due =
        std::chrono::ceil<std::chrono::milliseconds>(*curl_due_ - std::chrono::steady_clock::now())
            .count();
    timeout_ms = std::min<long>(timeout_ms, std::max<long>(0, static_cast<long>(until_due)));
  }
  epoll_event events[kMaxEvents];
  const int n = epoll_wait(epoll_fd_, events, kMaxEvents, static_cast<int>(timeout_ms));
  for (int i = 0; i < n; ++i) {
    const int fd = events[i].data.fd;
    if (fd == wake_fd_) {
      uint64_t count = 0;
      while (read(wake_fd_, &count, sizeof count) > 0) {
      }
      continue;
    }
    int flags = 0;
    if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
    if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
    if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
    ready_.emplace_back(fd, flags);
  }
}

void CurlDriver::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = write(wake_fd_, &one, sizeof one);
}

#else  // Not Linux: libcurl's own polling.

CurlDriver::CurlDriver(CURLM* multi) : multi_(multi) {}
CurlDriver::~CurlDriver() = default;

int CurlDriver::on_socket(CURL*, curl_socket_t, int, void*, void*) {
  return 0;
}
int CurlDriver::on_timer(CURLM*, long, void*) {
  return 0;
}

void CurlDriver::perform() {
  int running = 0;
  curl_multi_perform(multi_, &running);
}

void CurlDriver::wait(long timeout_ms) {
  curl_multi_poll(multi_, nullptr, 0, static_cast<int>(timeout_ms), nullptr);
}

void CurlDriver::wake() {
  curl_multi_wakeup(multi_);
}

#endif

}  // namespace hermes::internal
