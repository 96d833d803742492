#include "support/socket_io.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>

namespace hermes::testing {

bool send_all(int fd, std::initializer_list<std::string_view> parts) {
  std::array<iovec, 4> iov{};
  std::size_t count = 0;
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    if (count == iov.size()) return false;
    iov[count++] = {const_cast<char*>(part.data()), part.size()};
  }
  std::size_t first = 0;
  while (first < count) {
    msghdr message{};
    message.msg_iov = &iov[first];
    message.msg_iovlen = count - first;
    ssize_t written = sendmsg(fd, &message, MSG_NOSIGNAL);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    auto left = static_cast<std::size_t>(written);
    while (first < count && left >= iov[first].iov_len) left -= iov[first++].iov_len;
    if (first < count) {
      iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + left;
      iov[first].iov_len -= left;
    }
  }
  return true;
}

void set_no_delay(int fd) {
  int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

void reset_on_close(int fd) {
  linger abort{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace hermes::testing
