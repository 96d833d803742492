// The loopback mock model server: a small HTTP/1.1 server on 127.0.0.1 that answers
// each request with the next scripted response and records what it was sent.
//
// It stands in for remote LLM services only. Responses are prepared bytes (a JSON body,
// or SSE chunks), so one server speaks every wire format; builders for the common shapes
// live in mock_responses.hpp. Faults are part of a response: any status and headers, a
// slow first byte, a pause between chunks, a stall after N chunks, a connection dropped
// after N chunks, a connection closed or reset before any byte.
//
// Requests whose path starts with /_mock/ are control requests (the API of the
// hermes-mock-server executable, see mock_server_main.cpp); they are answered by the
// server itself, never consume a scripted response and are not recorded. Metadata probes
// (GET .../models, .../props, /api/tags, /version, POST /api/show) are served only by
// responses scripted with a matching path_prefix (queued, or the default response when it
// has one); otherwise they get 404 and are not recorded, so that a client resolving a
// model's context window does not eat the scripted model answers.
//
// Thread-safety: every method may be called from any thread while the server runs.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::testing {

// One scripted answer.
struct MockResponse {
  int status = 200;
  // Content-Type defaults to application/json, or to text/event-stream when `chunks` is
  // set. Content-Length and Transfer-Encoding are always the server's own; a
  // "Connection: close" header makes the server close the connection after answering.
  std::vector<std::pair<std::string, std::string>> headers;
  // The whole body, sent with Content-Length, when `chunks` is empty.
  std::string body;
  // When non-empty: the body is sent with chunked transfer encoding, one chunk per
  // element, flushed separately (SSE events, fragments of a JSON body).
  std::vector<std::string> chunks;
  std::chrono::milliseconds first_byte_delay{0};  // Before the status line.
  std::chrono::milliseconds chunk_delay{0};       // Before each chunk after the first.
  // Close the connection (no terminating chunk) after this many chunks. With a plain
  // `body`, 0 sends only the headers and any other value the whole body before closing.
  std::optional<std::size_t> drop_after_chunks;
  // Accept the request, then close the connection without answering.
  bool close_before_headers = false;
  // With close_before_headers: abort the connection with a TCP reset instead of an
  // orderly close, so the client sees "connection reset by peer". Ignored otherwise.
  bool reset_connection = false;
  // Pause once for `stall` after this many chunks (an upstream that stops producing
  // mid-stream). Only for chunked bodies; `stall` counts instead of chunk_delay there.
  std::optional<std::size_t> stall_after_chunks;
  std::chrono::milliseconds stall{0};
  // Only requests whose path starts with this are answered by this response; empty
  // matches any path. Requests for other paths get the next matching response.
  std::string path_prefix;
};

// Reads a response spec from JSON (the format of the executable's control API and
// script files; see mock_server_main.cpp). InvalidArgument names the bad key.
Result<MockResponse> mock_response_from_json(const Json& spec);

// One request as the server received it.
struct RecordedRequest {
  std::string method;
  std::string path;                            // Including the query string.
  std::map<std::string, std::string> headers;  // Keys lower-cased.
  std::string body;                            // Decoded when it was sent chunked.

  // The body parsed as JSON (null when it is not JSON).
  Json json() const;
  // A header value, or "" when absent. `name` is matched case-insensitively.
  std::string header(const std::string& name) const;
};

class MockServer {
 public:
  // Binds 127.0.0.1 on `port` (0: any free port) and starts serving. Throws
  // std::runtime_error if the socket cannot be bound (tests only).
  explicit MockServer(int port = 0);
  ~MockServer();  // Stops serving, interrupts delays, closes sockets, joins every thread.
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  int port() const;
  // "http://127.0.0.1:<port>" and the same with "/v1" appended.
  std::string url() const;
  std::string base_url() const;

  // Queues a response; responses are served in order (see path_prefix).
  void enqueue(MockResponse response);
  void enqueue(std::vector<MockResponse> responses);

  // Served when the queue holds nothing for a request. Without a default such a request
  // gets HTTP 500 with {"error":{"message":"mock server: no scripted response left"}}.
  void set_default(std::optional<MockResponse> response);

  // Answers every request whose body is longer than `max_bytes` with `refusal`, without
  // taking a scripted response (a model server refusing prompts over its window). The
  // request is recorded. 0 turns the limit off.
  void refuse_bodies_over(std::size_t max_bytes, MockResponse refusal);
  // When on, a served response goes back to the end of the queue, so the script repeats
  // forever (benchmarks and demos). Off by default.
  void set_looping(bool looping);

  // Serves requests whose path starts with /c/<key>/ from `script`, each key on its own:
  // the n-th such request of a key gets script[n % size]. Many conversations running at
  // once (benchmarks) then each see the whole script in order, whatever the interleaving
  // on the server. These requests bypass the queue; an empty script turns this off.
  void set_conversation_script(std::vector<MockResponse> script);

  // When off, requests are counted but not kept, so a long benchmark does not grow the
  // server's memory. On by default.
  void set_recording(bool recording);

  // Every request received so far (control requests to /_mock/ excluded), in order.
  std::vector<RecordedRequest> requests() const;
  std::size_t request_count() const;
  // Scripted responses not yet served.
  std::size_t pending() const;
  // Drops queued responses and recorded requests (the default response stays).
  void reset();

  // Called on a serving thread for every scripted request, with the status about to be
  // sent (0 when the connection is closed without an answer). Must not block.
  void on_request(std::function<void(const RecordedRequest&, int status)> observer);
  // Called on a serving thread after POST /_mock/shutdown has been answered. Without a
  // handler that request gets 404: an in-process server is stopped by its owner.
  void on_shutdown_request(std::function<void()> handler);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes::testing
