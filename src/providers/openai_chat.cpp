#include "providers/openai_chat.hpp"

#include <utility>

#include "common/json_text.hpp"
#include "common/log.hpp"
#include "providers/chat_stream_assembler.hpp"
#include "providers/error_body.hpp"
#include "providers/sse_parser.hpp"
#include "providers/text.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxErrorBodyBytes = 16 * 1024;

bool is_success(int status) {
  return status >= 200 && status < 300;
}

bool is_json(std::string_view content_type) {
  return iequals(trim_ascii(content_type.substr(0, content_type.find(';'))), "application/json");
}

bool has_line_break(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

std::string without_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// Servers that reject stream_options say so in a 400 or 422 that names the field.
bool rejects_stream_options(const Status& status) {
  const ApiError* error = status.api_error();
  if (!error || (error->http_status != 400 && error->http_status != 422)) return false;
  return error->message.find("stream_options") != std::string::npos ||
         error->body.find("stream_options") != std::string::npos;
}

}  // namespace

OpenAiChatProvider::OpenAiChatProvider(ProviderConfig config) : config_(std::move(config)) {
  info_.name = config_.provider.empty() ? "custom" : config_.provider;
  info_.api_mode = std::string(kApiModeChatCompletions);
  info_.base_url = config_.base_url;
  info_.model = config_.model;
  url_ = without_trailing_slashes(config_.base_url) + "/chat/completions";
}

Result<ProviderResponse> OpenAiChatProvider::complete(const ProviderRequest& request,
                                                      const CallContext& context) {
  if (context.cancel.cancelled()) {
    return Status::cancelled("the call was cancelled before it started");
  }
  ChatDialect dialect = chat_dialect_for(info_.name, info_.base_url, model_for(request));
  dialect.include_usage = !stream_options_rejected_.load(std::memory_order_relaxed);
  Result<ProviderResponse> result = attempt(request, context, dialect);
  if (!result.ok() && request.stream && dialect.include_usage &&
      rejects_stream_options(result.status())) {
    // Not a retry of a failure but the other half of a negotiation: the request never
    // reached the model.
    HERMES_LOG_INFO("{} rejects stream_options; sending requests without it", info_.base_url);
    stream_options_rejected_.store(true, std::memory_order_relaxed);
    dialect.include_usage = false;
    result = attempt(request, context, dialect);
  }
  return result;
}

Result<ProviderResponse> OpenAiChatProvider::attempt(const ProviderRequest& request,
                                                     const CallContext& context,
                                                     const ChatDialect& dialect) const {
  auto body = build_chat_request(request, dialect, config_.model);
  if (!body.ok()) return body.status();
  auto header_lines = headers(context, request.stream);
  if (!header_lines.ok()) return header_lines.status();
  HttpRequest http;
  http.url = url_;
  http.headers = std::move(*header_lines);
  http.body = dump_json(*body);
  http.timeouts = config_.timeouts;
  http.accept_compressed = !request.stream;
  return request.stream ? streamed(request, context, std::move(http))
                        : buffered(request, context, std::move(http));
}

Result<ProviderResponse> OpenAiChatProvider::streamed(const ProviderRequest& request,
                                                      const CallContext& context,
                                                      HttpRequest http) const {
  ChatStreamAssembler assembler(&context.on_event);
  SseParser sse([&assembler](const SseEvent& event) { assembler.add_event(event); });
  HttpBodySink sink;
  // Early failures (auth, validation, rate limits) come back as JSON even for streams,
  // and some servers ignore stream=true: only a successful non-JSON body is a stream.
  sink.wants_stream = [](const HttpResponseHead& head) {
    return is_success(head.status) && !is_json(head.content_type);
  };
  sink.on_data = [&](std::string_view bytes) {
    sse.feed(bytes);
    return !assembler.failed();  // The answer is known: stop reading.
  };
  const HttpResult result = HttpClient::shared().post(http, context.cancel, &sink);
  if (result.cancelled) return Status::cancelled("the model call was cancelled");
  if (!result.streamed) return from_body(request, result);
  if (result.stopped && !assembler.failed() && !result.error.empty()) {
    return Status::internal("the stream callback failed: " + result.error);
  }
  if (result.failure == TransportFailure::kNone) {
    sse.finish();  // A last event may lack its closing blank line.
  } else if (!assembler.failed() && !assembler.complete()) {
    return Status::api_error(transport_error(request, result));
  }
  return annotated(assembler.finish(), request, result);
}

Result<ProviderResponse> OpenAiChatProvider::buffered(const ProviderRequest& request,
                                                      const CallContext& context,
                                                      HttpRequest http) const {
  const HttpResult result = HttpClient::shared().post(http, context.cancel);
  if (result.cancelled) return Status::cancelled("the model call was cancelled");
  return from_body(request, result);
}

// A response whose body was buffered: an HTTP error, or a whole chat.completion.
Result<ProviderResponse> OpenAiChatProvider::from_body(const ProviderRequest& request,
                                                       const HttpResult& http) const {
  if (http.failure != TransportFailure::kNone)
    return Status::api_error(transport_error(request, http));
  if (!is_success(http.head.status)) return Status::api_error(http_error(request, http));
  if (http.stopped) {
    ApiError error;
    error.http_status = http.head.status;
    error.error_code = "invalid_response";
    error.message = http.error;
    return annotated(Status::api_error(std::move(error)), request, http);
  }
  ChatStreamAssembler assembler;
  assembler.add_completion(http.body);
  return annotated(assembler.finish(), request, http);
}

const std::string& OpenAiChatProvider::model_for(const ProviderRequest& request) const {
  return request.model.empty() ? config_.model : request.model;
}

Result<std::vector<std::string>> OpenAiChatProvider::headers(const CallContext& context,
                                                             bool stream) const {
  std::vector<std::string> lines;
  lines.reserve(config_.headers.size() + 2);
  lines.emplace_back(stream ? "Accept: text/event-stream" : "Accept: application/json");
  const std::string& key = context.api_key.empty() ? config_.api_key : context.api_key;
  if (has_line_break(key)) return Status::invalid_argument("api_key: contains a line break");
  // Local servers accept any key or none; send one only when configured.
  if (!key.empty()) lines.push_back("Authorization: Bearer " + key);
  for (const auto& [name, value] : config_.headers) lines.push_back(name + ": " + value);
  return lines;
}

ApiError OpenAiChatProvider::http_error(const ProviderRequest& request,
                                        const HttpResult& http) const {
  const ErrorBody body = read_error_body(std::string_view(http.body));
  ApiError error;
  error.http_status = http.head.status;
  error.message = best_error_message(body, http.body);
  if (error.message.empty()) error.message = "HTTP " + std::to_string(http.head.status);
  error.body = truncate_utf8(http.body, kMaxErrorBodyBytes);
  error.error_code = body.code;
  error.retry_after_seconds = http.head.retry_after_seconds;
  error.provider = info_.name;
  error.model = model_for(request);
  error.request_id = http.head.request_id;
  return error;
}

ApiError OpenAiChatProvider::transport_error(const ProviderRequest& request,
                                             const HttpResult& http) const {
  ApiError error;
  error.transport = http.failure;
  error.message = http.error;
  if (http.streamed) error.message = "the stream broke off: " + error.message;
  error.provider = info_.name;
  error.model = model_for(request);
  error.request_id = http.head.request_id;
  return error;
}

Result<ProviderResponse> OpenAiChatProvider::annotated(Result<ProviderResponse> result,
                                                       const ProviderRequest& request,
                                                       const HttpResult& http) const {
  if (result.ok()) {
    result->request_id = http.head.request_id;
    return result;
  }
  const ApiError* found = result.status().api_error();
  if (!found) return result;
  ApiError error = *found;
  error.provider = info_.name;
  error.model = model_for(request);
  error.request_id = http.head.request_id;
  if (!error.retry_after_seconds) error.retry_after_seconds = http.head.retry_after_seconds;
  return Status::api_error(std::move(error));
}

}  // namespace hermes::internal
