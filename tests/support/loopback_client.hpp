// A deliberately small HTTP/1.1 client for tests of the mock server. It shows what came
// over the wire (each chunk, a body cut short, a connection closed without an answer),
// which a full client library would smooth over.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/socket_reader.hpp"

namespace hermes::testing {

struct HttpReply {
  int status = 0;                     // 0 when the connection closed before a status line arrived.
  std::vector<int> interim_statuses;  // 1xx responses that came first.
  std::map<std::string, std::string> headers;  // Keys lower-cased.
  std::string body;                            // Without chunk framing.
  std::vector<std::string> chunks;             // A chunked body's chunks, in order.
  bool chunked = false;
  bool complete = false;  // The body ended where its framing said, not cut off.

  // A header value, or "" when absent; `name` is matched case-insensitively.
  std::string header(const std::string& name) const;
};

// One connection to 127.0.0.1. Not thread-safe. Reads give up after 30 seconds, so a
// broken server fails a test instead of hanging it.
class LoopbackClient {
 public:
  // Connects; throws std::runtime_error when nothing listens on `port`.
  explicit LoopbackClient(int port);
  ~LoopbackClient();
  LoopbackClient(const LoopbackClient&) = delete;
  LoopbackClient& operator=(const LoopbackClient&) = delete;

  using Headers = std::vector<std::pair<std::string, std::string>>;

  // Sends a request with a Content-Length body (Host and Content-Length are added).
  bool send_request(const std::string& method, const std::string& path,
                    const std::string& body = "", const Headers& headers = {});
  // Sends bytes as they are (chunked bodies, malformed requests).
  bool send_raw(std::string_view bytes);
  // Reads one response, skipping interim 1xx responses.
  HttpReply read_reply();
  // send_request() then read_reply().
  HttpReply request(const std::string& method, const std::string& path,
                    const std::string& body = "", const Headers& headers = {});

  // True when the socket has data or the server's close waiting, after waiting at most
  // `timeout` (bytes this client has already buffered do not count).
  bool readable(std::chrono::milliseconds timeout = std::chrono::milliseconds(0)) const;

 private:
  int fd_ = -1;
  SocketReader reader_;
};

}  // namespace hermes::testing
