// One model call over HTTP, the part every wire format shares: send the request, feed a
// streamed body through the format's assembler (or hand it a buffered one), and turn HTTP
// and transport failures into unclassified ApiErrors that name the provider, the model
// and the request id.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "hermes/api_error.hpp"
#include "hermes/provider.hpp"
#include "providers/http_client.hpp"
#include "providers/sse_parser.hpp"

namespace hermes::internal {

// The most tool calls, output items or content blocks one answer may open. No model
// opens more than a few dozen, and the assemblers find them by index with a linear
// search: beyond this a stream is an invalid response, not a quadratic amount of work.
inline constexpr int kMaxAnswerParts = 4096;

// Builds one answer from a wire format's events or body.
//
// Thread-safety: none; one assembler per call.
class AnswerAssembler {
 public:
  virtual ~AnswerAssembler() = default;

  // Handles one SSE event of a stream. Returns false once the stream has failed, when
  // reading further is pointless.
  virtual bool add_event(const SseEvent& event) = 0;
  // Handles a whole response body (a non-streamed answer, or a server that ignored
  // stream=true).
  virtual void add_body(std::string_view body) = 0;

  virtual bool failed() const = 0;
  // The stream's terminal signal arrived.
  virtual bool complete() const = 0;

  // The answer, once the body has ended. A stream that failed, or ended without its
  // terminal signal (TransportFailure::kDisconnect), gives kApiError.
  virtual Result<ProviderResponse> finish() = 0;
};

// Makes a fresh assembler reporting stream events to `on_event` (null: report nothing).
using AssemblerFactory =
    std::function<std::unique_ptr<AnswerAssembler>(const StreamCallback* on_event)>;

// What to send, and whom to name in errors.
struct ModelExchange {
  HttpRequest http;  // Sent as a POST.
  bool stream = true;
  std::string provider;
  std::string model;
};

// Performs the call. Cancellation gives kCancelled; everything else that goes wrong is a
// kApiError whose ApiError carries the HTTP status, message, body, error code, transport
// failure, Retry-After and request id.
Result<ProviderResponse> run_model_exchange(const ModelExchange& exchange,
                                            const CallContext& context,
                                            const AssemblerFactory& make_assembler);

// The ApiError for an HTTP error response (status outside 2xx) in any provider's shape.
ApiError http_error(const ModelExchange& exchange, const HttpResult& http);

// InvalidArgument naming `field` when `value` would split an HTTP header.
Status check_header_value(std::string_view field, std::string_view value);

}  // namespace hermes::internal
