// Buffered reads of HTTP/1.1 framing from a blocking socket: lines, exact byte counts,
// chunked bodies. Shared by the mock server (requests) and the test client (responses).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::testing {

// `text` without the spaces and tabs HTTP allows around field values and chunk sizes.
std::string_view trim_ows(std::string_view text);

enum class ReadResult {
  kOk,
  kClosed,     // The peer closed the connection, or the socket failed or timed out.
  kMalformed,  // Not HTTP framing, or larger than a reader accepts.
};

// Not thread-safe: one reader per socket, used by one thread.
class SocketReader {
 public:
  explicit SocketReader(int fd) : fd_(fd) {}

  // The next line, without its line break ("\r\n" or "\n").
  ReadResult read_line(std::string& line);
  // Appends exactly `count` bytes to `out`.
  ReadResult read_exact(std::size_t count, std::string& out);
  // Appends a chunked body to `out` and, when `chunks` is given, each chunk's data to it.
  // Trailer fields are read and dropped.
  ReadResult read_chunked(std::string& out, std::vector<std::string>* chunks = nullptr);
  // Appends everything until the peer closes.
  ReadResult read_to_end(std::string& out);

 private:
  bool fill();  // Appends what the socket has; false on EOF, error or timeout.

  int fd_;
  std::string buffer_;
  std::size_t consumed_ = 0;  // Bytes of buffer_ already handed out.
  std::array<char, 16384> scratch_{};
};

}  // namespace hermes::testing
