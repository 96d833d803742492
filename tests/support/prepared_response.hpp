// A MockResponse turned into the bytes the server writes, once, when it is scripted, so
// that serving it costs only system calls.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/mock_server.hpp"
#include "support/stop_signal.hpp"

namespace hermes::testing {

struct PreparedResponse {
  int status = 200;
  std::string head;                 // Status line and headers, ending with the blank line.
  std::string body;                 // Plain body (sent with Content-Length).
  std::vector<std::string> frames;  // Chunked body: each chunk with its size line and CRLF.
  bool chunked = false;
  bool close_after = false;  // The script asked for "Connection: close".
  std::chrono::milliseconds first_byte_delay{0};
  std::chrono::milliseconds chunk_delay{0};
  std::optional<std::size_t> drop_after_chunks;
  bool close_before_headers = false;
  bool reset_connection = false;
  std::optional<std::size_t> stall_after_chunks;
  std::chrono::milliseconds stall{0};
  std::string path_prefix;
};

std::shared_ptr<const PreparedResponse> prepare_response(const MockResponse& response);

// Writes `response` to `fd`, sleeping through its delays on `stop`. True when the
// connection may serve another request; false when the response (or a failed write or a
// raised `stop`) means the connection must be closed.
bool write_response(int fd, const PreparedResponse& response, StopSignal& stop);

}  // namespace hermes::testing
