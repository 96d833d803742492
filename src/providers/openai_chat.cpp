#include "providers/openai_chat.hpp"

#include <memory>
#include <utility>

#include "common/json_text.hpp"
#include "providers/chat_stream_assembler.hpp"
#include "providers/model_exchange.hpp"
#include "providers/url_parts.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

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
  auto body = encode_chat_request(request, dialect, config_.model);
  if (!body.ok()) return body.status();
  auto header_lines = headers(context, request.stream);
  if (!header_lines.ok()) return header_lines.status();
  ModelExchange exchange;
  exchange.http.url = url_;
  exchange.http.headers = std::move(*header_lines);
  exchange.http.body = std::move(*body);
  exchange.http.timeouts = config_.timeouts;
  exchange.http.accept_compressed = !request.stream;
  exchange.stream = request.stream;
  exchange.provider = info_.name;
  exchange.model = model_for(request);
  return run_model_exchange(exchange, context, [](const StreamCallback* on_event) {
    return std::make_unique<ChatStreamAssembler>(on_event);
  });
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
  HERMES_RETURN_IF_ERROR(check_header_value("api_key", key));
  // Local servers accept any key or none; send one only when configured.
  if (!key.empty()) lines.push_back("Authorization: Bearer " + key);
  for (const auto& [name, value] : config_.headers) lines.push_back(name + ": " + value);
  return lines;
}

}  // namespace hermes::internal
