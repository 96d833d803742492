// HTTP POST over libcurl for model calls: streamed or buffered bodies, four separate
// timeouts, cancellation within 100 ms, and connections kept alive across calls.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/cancel.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value" lines.
  std::string body;
  HttpTimeouts timeouts;
  // Ask for a compressed response. Leave off for streams: a decompressor may hold back
  // events until it has a full block.
  bool accept_compressed = false;
};

// The status line and the headers a model client cares about.
struct HttpResponseHead {
  int status = 0;
  std::string content_type;
  std::string request_id;                     // x-request-id, else request-id.
  std::optional<double> retry_after_seconds;  // retry-after-ms, else retry-after.
};

// Where a response body goes. When `wants_stream` returns true for the head, the body is
// handed to `on_data` as it arrives; otherwise it is buffered into HttpResult::body.
struct HttpBodySink {
  std::function<bool(const HttpResponseHead&)> wants_stream;
  // Returning false stops the transfer (HttpResult::stopped).
  std::function<bool(std::string_view)> on_data;
};

struct HttpResult {
  HttpResponseHead head;   // status is 0 when no response arrived.
  std::string body;        // The buffered body (not set when it was streamed).
  bool streamed = false;   // The body went to the sink.
  bool cancelled = false;  // The cancel token stopped the transfer.
  // The transfer was ended early on purpose: the sink returned false, or (with `error`
  // set) the sink threw or a buffered body grew too large.
  bool stopped = false;
  TransportFailure failure = TransportFailure::kNone;
  std::string error;  // What went wrong, in words.
};

// The process-wide client. Finished transfers park their handles (and with them their
// open connections) in a pool that the next call reuses; DNS answers and TLS sessions
// are shared by every handle.
//
// Thread-safety: post() may be called from any number of threads at once.
class HttpClient {
 public:
  static HttpClient& shared();

  // Sends `request` as a POST with a JSON body and waits for the whole response, or
  // until a timeout, a transport failure, the sink or `cancel` ends it. Never throws.
  HttpResult post(const HttpRequest& request, const CancelToken& cancel,
                  const HttpBodySink* sink = nullptr);

  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

 private:
  HttpClient();
  ~HttpClient() = default;
  struct Pool;
  Pool* pool_;  // Never destroyed: transfers may still run while the process exits.
};

// Parses a Retry-After value: delta seconds (fractions accepted) or an HTTP-date
// (seconds from `now_unix`, at least 0). nullopt for anything else.
std::optional<double> parse_retry_after(std::string_view value, long long now_unix);

}  // namespace hermes::internal
