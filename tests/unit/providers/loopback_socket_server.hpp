// A raw-socket HTTP/1.1 server on 127.0.0.1 for the transport tests of the HTTP client:
// each accepted connection runs a test-written script (read a request, send bytes, go
// silent, hang up) on its own thread, so tests can stage timeouts, cancellation and
// connection reuse byte by byte. The full scripted model server lives in tests/support.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace hermes::testing {

class LoopbackConnection {
 public:
  LoopbackConnection(int fd, const std::atomic<bool>& stopping) : fd_(fd), stopping_(stopping) {}

  // Reads one request: the head, and a body of Content-Length bytes. False when the
  // client hung up or the server is stopping.
  bool read_request(std::string* head = nullptr, std::string* body = nullptr) {
    std::size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!receive()) return false;
    }
    const std::string request_head = buffer_.substr(0, end + 4);
    const std::size_t length = content_length(request_head);
    while (buffer_.size() < end + 4 + length) {
      if (!receive()) return false;
    }
    if (head) *head = request_head;
    if (body) *body = buffer_.substr(end + 4, length);
    buffer_.erase(0, end + 4 + length);
    return true;
  }

  // False once the client has gone.
  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Says nothing until the client hangs up or the server stops. True when the client
  // hung up.
  bool wait_for_hangup() {
    char scratch[4096];
    while (!stopping_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      if (::recv(fd_, scratch, sizeof scratch, 0) <= 0) return true;
    }
    return false;
  }

 private:
  bool receive() {
    char chunk[4096];
    while (!stopping_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    return false;
  }

  static std::size_t content_length(const std::string& head) {
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t at = lower.find("\r\ncontent-length:");
    if (at == std::string::npos) return 0;
    return std::stoul(lower.substr(at + 17));
  }

  int fd_;
  const std::atomic<bool>& stopping_;
  std::string buffer_;
};

class LoopbackSocketServer {
 public:
  using Script = std::function<void(LoopbackConnection&)>;

  explicit LoopbackSocketServer(Script script) : script_(std::move(script)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
        ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }

  ~LoopbackSocketServer() {
    stopping_ = true;
    acceptor_.join();
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::thread& t : connections_) t.join();
    ::close(listener_);
  }

  std::string url(std::string_view path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
  }
  int connections_accepted() const { return accepted_; }

 private:
  void accept_loop() {
    while (!stopping_) {
      pollfd p{listener_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      ++accepted_;
      std::lock_guard<std::mutex> lock(mutex_);
      connections_.emplace_back([this, fd] {
        LoopbackConnection connection(fd, stopping_);
        script_(connection);
        ::close(fd);
      });
    }
  }

  Script script_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> accepted_{0};
  std::mutex mutex_;
  std::vector<std::thread> connections_;
  std::thread acceptor_;
};

}  // namespace hermes::testing
