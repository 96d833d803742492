#include "providers/model_exchange.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/text_utils.hpp"
#include "providers/error_body.hpp"
#include "providers/reasoning_models.hpp"

namespace hermes::internal {
namespace {

// Pings and keep-alive events prove the connection is alive, not that the model is
// making progress; comment lines never reach the parser's handler at all.
bool is_progress(const SseEvent& event) {
  if (!event.has_data && !event.has_error) return false;
  return event.event != "ping" && event.event != "keepalive" && event.event != "keep-alive";
}

bool is_success(int status) {
  return status >= 200 && status < 300;
}

bool is_json(std::string_view content_type) {
  return iequals(trim_ascii(content_type.substr(0, content_type.find(';'))), "application/json");
}

ApiError transport_error(const ModelExchange& exchange, const HttpResult& http) {
  ApiError error;
  error.transport = http.failure;
  error.message = http.error;
  if (http.streamed) error.message = "the stream broke off: " + error.message;
  error.provider = exchange.provider;
  error.model = exchange.model;
  error.request_id = http.head.request_id;
  return error;
}

// A stream cut off at a size limit (an event, or the whole stream): an answer of the
// wrong shape rather than a broken connection.
ApiError oversized_stream_error(const ModelExchange& exchange, const HttpResult& http,
                                std::string why) {
  ApiError error;
  error.http_status = http.head.status;
  error.error_code = "invalid_response";
  error.message = std::move(why);
  error.provider = exchange.provider;
  error.model = exchange.model;
  error.request_id = http.head.request_id;
  return error;
}

// The configured limit, raised for models known to think silently for minutes; 0 = off.
std::chrono::milliseconds stale_stream_limit(const ModelExchange& exchange) {
  const std::chrono::milliseconds configured = exchange.http.timeouts.stale_stream;
  if (configured.count() <= 0) return std::chrono::milliseconds(0);
  const auto floor = reasoning_stale_timeout_floor(exchange.model);
  return floor ? std::max(configured, std::chrono::milliseconds(*floor)) : configured;
}

ApiError stale_stream_error(const ModelExchange& exchange, const HttpResult& http) {
  ApiError error = transport_error(exchange, http);
  error.transport = TransportFailure::kTimeout;
  error.message = "the stream sent only keep-alives for " +
                  std::to_string(stale_stream_limit(exchange).count()) +
                  " ms: the model stopped making progress";
  return error;
}

// Fills in who answered, and the request id and Retry-After the HTTP head carried.
Result<ProviderResponse> annotated(Result<ProviderResponse> result, const ModelExchange& exchange,
                                   const HttpResult& http) {
  if (result.ok()) {
    result->request_id = http.head.request_id;
    return result;
  }
  const ApiError* found = result.status().api_error();
  if (!found) return result;
  ApiError error = *found;
  error.provider = exchange.provider;
  error.model = exchange.model;
  error.request_id = http.head.request_id;
  if (!error.retry_after_seconds) error.retry_after_seconds = http.head.retry_after_seconds;
  return Status::api_error(std::move(error));
}

// A response whose body was buffered: an HTTP error, or a whole answer.
Result<ProviderResponse> from_body(const ModelExchange& exchange, const HttpResult& http,
                                   const AssemblerFactory& make_assembler) {
  if (http.failure != TransportFailure::kNone) {
    return Status::api_error(transport_error(exchange, http));
  }
  if (!is_success(http.head.status)) return Status::api_error(http_error(exchange, http));
  if (http.stopped) {
    ApiError error;
    error.http_status = http.head.status;
    error.error_code = "invalid_response";
    error.message = http.error;
    return annotated(Status::api_error(std::move(error)), exchange, http);
  }
  std::unique_ptr<AnswerAssembler> assembler = make_assembler(nullptr);
  assembler->add_body(http.body);
  return annotated(assembler->finish(), exchange, http);
}

}  // namespace

ApiError http_error(const ModelExchange& exchange, const HttpResult& http) {
  const ErrorBody body = read_error_body(std::string_view(http.body));
  ApiError error;
  error.http_status = http.head.status;
  error.message = best_error_message(body, http.body);
  if (error.message.empty()) error.message = "HTTP " + std::to_string(http.head.status);
  error.body = truncate_utf8(http.body, kMaxErrorBodyBytes);
  error.error_code = body.code;
  error.retry_after_seconds = http.head.retry_after_seconds;
  error.provider = exchange.provider;
  error.model = exchange.model;
  error.request_id = http.head.request_id;
  return error;
}

Status check_header_value(std::string_view field, std::string_view value) {
  if (value.find_first_of("\r\n") == std::string_view::npos) return {};
  return Status::invalid_argument(std::string(field) + ": contains a line break");
}

Result<ProviderResponse> run_model_exchange(const ModelExchange& exchange,
                                            const CallContext& context,
                                            const AssemblerFactory& make_assembler) {
  if (!exchange.stream) {
    const HttpResult result = HttpClient::shared().post(exchange.http, context.cancel);
    if (result.cancelled) return Status::cancelled("the model call was cancelled");
    return from_body(exchange, result, make_assembler);
  }
  using Clock = std::chrono::steady_clock;
  std::unique_ptr<AnswerAssembler> assembler = make_assembler(&context.on_event);
  const std::chrono::milliseconds stale_limit = stale_stream_limit(exchange);
  Clock::time_point last_progress = Clock::now();
  bool stale = false;
  SseParser sse([&](const SseEvent& event) {
    if (is_progress(event)) last_progress = Clock::now();
    assembler->add_event(event);
  });
  HttpBodySink sink;
  // Early failures (auth, validation, rate limits) come back as JSON even for streams,
  // and some servers ignore stream=true: only a successful non-JSON body is a stream.
  sink.wants_stream = [](const HttpResponseHead& head) {
    return is_success(head.status) && !is_json(head.content_type);
  };
  sink.on_data = [&](std::string_view bytes) {
    if (!sse.feed(bytes)) return false;
    if (stale_limit.count() > 0 && Clock::now() - last_progress > stale_limit) {
      stale = true;
      return false;
    }
    return !assembler->failed();  // The answer is known: stop reading.
  };
  const HttpResult result = HttpClient::shared().post(exchange.http, context.cancel, &sink);
  if (result.cancelled) return Status::cancelled("the model call was cancelled");
  if (!result.streamed) return from_body(exchange, result, make_assembler);
  if (stale && !assembler->failed()) return Status::api_error(stale_stream_error(exchange, result));
  if (!assembler->failed() && (!sse.error().empty() || result.too_large)) {
    const std::string why = sse.error().empty() ? result.error : sse.error();
    return Status::api_error(oversized_stream_error(exchange, result, why));
  }
  if (result.stopped && !assembler->failed() && !result.error.empty()) {
    return Status::internal("the stream callback failed: " + result.error);
  }
  if (result.failure == TransportFailure::kNone) {
    sse.finish();  // A last event may lack its closing blank line.
  } else if (!assembler->failed() && !assembler->complete()) {
    return Status::api_error(transport_error(exchange, result));
  }
  return annotated(assembler->finish(), exchange, result);
}

}  // namespace hermes::internal
