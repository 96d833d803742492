#include "support/loopback_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/text_utils.hpp"
#include "support/socket_io.hpp"

namespace hermes::testing {
namespace {

int connect_loopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::string error = std::strerror(errno);
    close_fd(fd);
    throw std::runtime_error("connect 127.0.0.1:" + std::to_string(port) + ": " + error);
  }
  timeval timeout{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  set_no_delay(fd);
  return fd;
}

// "HTTP/1.1 200 OK" -> 200; 0 when the line is not a status line.
int parse_status(const std::string& line) {
  if (line.compare(0, 5, "HTTP/") != 0) return 0;
  std::size_t space = line.find(' ');
  if (space == std::string::npos || space + 4 > line.size()) return 0;
  int status = 0;
  for (std::size_t i = space + 1; i < space + 4; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) return 0;
    status = status * 10 + (line[i] - '0');
  }
  return status;
}

}  // namespace

std::string HttpReply::header(const std::string& name) const {
  auto it = headers.find(internal::lower_ascii(name));
  return it == headers.end() ? std::string() : it->second;
}

LoopbackClient::LoopbackClient(int port) : fd_(connect_loopback(port)), reader_(fd_) {}

LoopbackClient::~LoopbackClient() {
  close_fd(fd_);
}

bool LoopbackClient::send_request(const std::string& method, const std::string& path,
                                  const std::string& body, const Headers& headers) {
  std::string head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (const auto& [name, value] : headers) head += name + ": " + value + "\r\n";
  head += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  return send_all(fd_, {head, body});
}

bool LoopbackClient::send_raw(std::string_view bytes) {
  return send_all(fd_, {bytes});
}

HttpReply LoopbackClient::read_reply() {
  HttpReply reply;
  std::string line;
  for (;;) {
    if (reader_.read_line(line) != ReadResult::kOk) return reply;
    reply.status = parse_status(line);
    if (reply.status == 0) return reply;
    reply.headers.clear();
    while (reader_.read_line(line) == ReadResult::kOk && !line.empty()) {
      std::size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::size_t value = line.find_first_not_of(' ', colon + 1);
      reply.headers[internal::lower_ascii(line.substr(0, colon))] =
          value == std::string::npos ? std::string() : line.substr(value);
    }
    if (reply.status >= 200) break;
    reply.interim_statuses.push_back(reply.status);
  }

  reply.chunked =
      internal::lower_ascii(reply.header("transfer-encoding")).find("chunked") != std::string::npos;
  ReadResult result;
  if (reply.chunked) {
    result = reader_.read_chunked(reply.body, &reply.chunks);
  } else if (std::string length = reply.header("content-length"); !length.empty()) {
    result = reader_.read_exact(std::stoul(length), reply.body);
  } else {
    result = reader_.read_to_end(reply.body);
  }
  reply.complete = result == ReadResult::kOk;
  return reply;
}

HttpReply LoopbackClient::request(const std::string& method, const std::string& path,
                                  const std::string& body, const Headers& headers) {
  if (!send_request(method, path, body, headers)) return {};
  return read_reply();
}

bool LoopbackClient::readable(std::chrono::milliseconds timeout) const {
  pollfd poller{fd_, POLLIN, 0};
  return poll(&poller, 1, static_cast<int>(timeout.count())) > 0;
}

}  // namespace hermes::testing
