#include "support/prepared_response.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <utility>

#include "support/socket_io.hpp"

namespace hermes::testing {
namespace {

constexpr std::string_view kLastChunk = "0\r\n\r\n";

std::string_view reason_phrase(int status) {
  static constexpr std::pair<int, std::string_view> kPhrases[] = {
      {200, "OK"},
      {201, "Created"},
      {204, "No Content"},
      {400, "Bad Request"},
      {401, "Unauthorized"},
      {402, "Payment Required"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {408, "Request Timeout"},
      {409, "Conflict"},
      {413, "Payload Too Large"},
      {422, "Unprocessable Entity"},
      {429, "Too Many Requests"},
      {500, "Internal Server Error"},
      {502, "Bad Gateway"},
      {503, "Service Unavailable"},
      {504, "Gateway Timeout"},
      {529, "Site Overloaded"},
  };
  for (const auto& [code, phrase] : kPhrases) {
    if (code == status) return phrase;
  }
  return "Status";  // Clients must not depend on the phrase (RFC 9112 4).
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// An empty element frames to nothing: a zero-length chunk would end the body early.
std::string frame_chunk(const std::string& data) {
  if (data.empty()) return {};
  char size[24];
  int length = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  std::string frame;
  frame.reserve(static_cast<std::size_t>(length) + data.size() + 2);
  frame.append(size, static_cast<std::size_t>(length)).append(data).append("\r\n");
  return frame;
}

// The status line and headers. Framing headers are always the server's own, because a
// response that lies about its own framing would test the client's HTTP library, not
// the code under test.
std::string build_head(const MockResponse& response, bool& close_after) {
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " ";
  head.append(reason_phrase(response.status)).append("\r\n");
  bool has_content_type = false;
  for (const auto& [name, value] : response.headers) {
    if (equals_ignoring_case(name, "content-length") ||
        equals_ignoring_case(name, "transfer-encoding")) {
      continue;
    }
    if (equals_ignoring_case(name, "connection")) {
      close_after = equals_ignoring_case(value, "close");
      continue;
    }
    has_content_type = has_content_type || equals_ignoring_case(name, "content-type");
    head.append(name).append(": ").append(value).append("\r\n");
  }
  if (!has_content_type) {
    head.append(response.chunks.empty() ? "Content-Type: application/json\r\n"
                                        : "Content-Type: text/event-stream\r\n");
  }
  if (response.chunks.empty()) {
    head.append("Content-Length: ").append(std::to_string(response.body.size())).append("\r\n");
  } else {
    head.append("Transfer-Encoding: chunked\r\n");
  }
  head.append(close_after ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n");
  return head;
}

bool write_plain(int fd, const PreparedResponse& response) {
  bool truncated = response.drop_after_chunks == 0u;
  if (!send_all(fd, {response.head, truncated ? std::string_view() : response.body})) {
    return false;
  }
  return !response.drop_after_chunks && !response.close_after;
}

// The head leaves with the first chunk and the terminating chunk with the last, so an
// undelayed stream costs one write per chunk.
bool write_chunked(int fd, const PreparedResponse& response, StopSignal& stop) {
  const std::size_t count = response.frames.size();
  const std::size_t limit = std::min(response.drop_after_chunks.value_or(count), count);
  const bool terminate = !response.drop_after_chunks;
  for (std::size_t i = 0; i < limit; ++i) {
    const auto pause = response.stall_after_chunks == i ? response.stall : response.chunk_delay;
    if (i > 0 && !stop.sleep_for(pause)) return false;
    bool last = i + 1 == limit;
    if (!send_all(fd, {i == 0 ? std::string_view(response.head) : std::string_view(),
                       response.frames[i], last && terminate ? kLastChunk : std::string_view()})) {
      return false;
    }
  }
  if (limit == 0 && !send_all(fd, {response.head})) return false;
  return terminate && !response.close_after;
}

}  // namespace

std::shared_ptr<const PreparedResponse> prepare_response(const MockResponse& response) {
  auto prepared = std::make_shared<PreparedResponse>();
  prepared->status = response.status;
  prepared->head = build_head(response, prepared->close_after);
  prepared->chunked = !response.chunks.empty();
  if (prepared->chunked) {
    prepared->frames.reserve(response.chunks.size());
    for (const std::string& chunk : response.chunks) prepared->frames.push_back(frame_chunk(chunk));
  } else {
    prepared->body = response.body;
  }
  prepared->first_byte_delay = response.first_byte_delay;
  prepared->chunk_delay = response.chunk_delay;
  prepared->drop_after_chunks = response.drop_after_chunks;
  prepared->close_before_headers = response.close_before_headers;
  prepared->reset_connection = response.reset_connection;
  prepared->stall_after_chunks = response.stall_after_chunks;
  prepared->stall = response.stall;
  prepared->path_prefix = response.path_prefix;
  return prepared;
}

bool write_response(int fd, const PreparedResponse& response, StopSignal& stop) {
  if (!stop.sleep_for(response.first_byte_delay)) return false;
  if (response.close_before_headers) {
    if (response.reset_connection) reset_on_close(fd);
    return false;
  }
  return response.chunked ? write_chunked(fd, response, stop) : write_plain(fd, response);
}

}  // namespace hermes::testing
