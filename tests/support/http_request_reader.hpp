// Reads HTTP/1.1 requests, one after another, from a connected socket: the request line,
// the headers, and a body framed by Content-Length or by chunked transfer encoding.
#pragma once

#include <cstddef>

#include "support/mock_server.hpp"
#include "support/socket_reader.hpp"

namespace hermes::testing {

// What the head of a request says about the rest of the exchange.
struct RequestFraming {
  std::size_t content_length = 0;
  bool chunked = false;
  bool expects_continue = false;  // "Expect: 100-continue": the client waits before the body.
  bool keep_alive = true;         // False after "Connection: close" or an HTTP/1.0 request.
};

// Not thread-safe: one reader per connection, used by the connection's thread.
class HttpRequestReader {
 public:
  explicit HttpRequestReader(int fd) : socket_(fd) {}

  // Reads the request line and headers into `request` (its body left empty).
  ReadResult read_head(RecordedRequest& request, RequestFraming& framing);
  // Reads the body the head announced into `request.body`.
  ReadResult read_body(const RequestFraming& framing, RecordedRequest& request);

 private:
  SocketReader socket_;
};

}  // namespace hermes::testing
