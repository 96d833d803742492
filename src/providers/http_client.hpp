// HTTP over libcurl for model calls and their neighbours (metadata probes, MCP sessions):
// streamed or buffered bodies, four separate timeouts, cancellation within 100 ms, and
// connections kept alive across calls.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/cancel.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

enum class HttpMethod { kGet, kPost, kDelete };

// The default limits on a response body, beyond which the transfer is cut off with an
// error naming the limit (HttpResult::too_large). A buffered body is held whole and then
// parsed into a tree several times its size; a streamed one is consumed as it arrives
// but its answer accumulates, and a server that never ends it would otherwise be read
// until the total timeout. Both are far above any real answer: the largest model
// responses are a few MiB, and MCP messages are capped at 16 MiB.
inline constexpr std::size_t kMaxBufferedBodyBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxStreamedBodyBytes = std::size_t{256} << 20;

struct HttpRequest {
  std::string url;
  // "Name: value" lines. A POST gets "Content-Type: application/json" unless one is here.
  std::vector<std::string> headers;
  std::string body;  // Sent when not empty (always for a POST).
  HttpTimeouts timeouts;
  // Ask for a compressed response. Leave off for streams: a decompressor may hold back
  // events until it has a full block.
  bool accept_compressed = false;
  std::size_t max_buffered_body_bytes = kMaxBufferedBodyBytes;
  std::size_t max_streamed_body_bytes = kMaxStreamedBodyBytes;
};

// The status line and the headers of the final response (interim 1xx responses are
// forgotten), with the ones a model client cares about picked out.
struct HttpResponseHead {
  int status = 0;
  std::string content_type;
  std::string request_id;                     // x-request-id, else request-id.
  std::optional<double> retry_after_seconds;  // retry-after-ms, else retry-after.
  // Every header line in arrival order: names as sent, values trimmed.
  std::vector<std::pair<std::string, std::string>> headers;

  // The value of the first header named `name` (compared ignoring ASCII case), or
  // nullopt. The view lives as long as this head.
  std::optional<std::string_view> find_header(std::string_view name) const;
  // The same, with "" for an absent header.
  std::string_view header(std::string_view name) const {
    return find_header(name).value_or(std::string_view());
  }
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
  // set) the sink threw or the body grew too large.
  bool stopped = false;
  // The body outgrew its limit (HttpRequest::max_*_body_bytes); `error` names it.
  bool too_large = false;
  TransportFailure failure = TransportFailure::kNone;
  std::string error;  // What went wrong, in words.
};

// The process-wide client. Finished transfers park their handles (and with them their
// open connections) in a pool that the next call reuses; DNS answers and TLS sessions
// are shared by every handle.
//
// Thread-safety: every method may be called from any number of threads at once.
class IoLoop;

class HttpClient {
 public:
  static HttpClient& shared();

  // Sends `request` with `method` and waits for the whole response, or until a timeout,
  // a transport failure, the sink or `cancel` ends it. Never throws.
  HttpResult send(HttpMethod method, const HttpRequest& request, const CancelToken& cancel,
                  const HttpBodySink* sink = nullptr);

  // send() with POST (a JSON body, unless the headers name another type) and with GET.
  HttpResult post(const HttpRequest& request, const CancelToken& cancel,
                  const HttpBodySink* sink = nullptr) {
    return send(HttpMethod::kPost, request, cancel, sink);
  }
  HttpResult get(const HttpRequest& request, const CancelToken& cancel,
                 const HttpBodySink* sink = nullptr) {
    return send(HttpMethod::kGet, request, cancel, sink);
  }

  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

 private:
  HttpClient();
  ~HttpClient() = default;
  HttpResult send_on_loop(IoLoop& loop, HttpMethod method, const HttpRequest& request,
                          const CancelToken& cancel, const HttpBodySink* sink);
  struct Pool;
  Pool* pool_;  // Never destroyed: transfers may still run while the process exits.
};

// Parses a Retry-After value: delta seconds (fractions accepted) or an HTTP-date
// (seconds from `now_unix`, at least 0). nullopt for anything else.
std::optional<double> parse_retry_after(std::string_view value, long long now_unix);

}  // namespace hermes::internal
