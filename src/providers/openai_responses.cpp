#include "providers/openai_responses.hpp"

#include <memory>
#include <utility>

#include "common/json_text.hpp"
#include "providers/model_exchange.hpp"
#include "providers/responses_stream_assembler.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {}  // namespace

OpenAiResponsesProvider::OpenAiResponsesProvider(ProviderConfig config)
    : config_(std::move(config)) {
  info_.name = config_.provider.empty() ? "custom" : config_.provider;
  info_.api_mode = std::string(kApiModeResponses);
  info_.base_url = config_.base_url;
  info_.model = config_.model;
  dialect_ = responses_dialect_for(info_.name, info_.base_url);
  url_ = without_trailing_slashes(config_.base_url) + "/responses";
}

Result<ProviderResponse> OpenAiResponsesProvider::complete(const ProviderRequest& request,
                                                           const CallContext& context) {
  if (context.cancel.cancelled()) {
    return Status::cancelled("the call was cancelled before it started");
  }
  auto body = encode_responses_request(request, dialect_, config_.model);
  if (!body.ok()) return body.status();
  // As the body says: extra_body may have replaced the setting.
  bool stream = request.stream || dialect_.codex_backend;
  if (request.extra_body.is_object()) {
    if (auto it = request.extra_body.find("stream"); it != request.extra_body.end()) {
      stream = it->is_boolean() && it->get<bool>();
    }
  }
  auto header_lines = headers(context, stream);
  if (!header_lines.ok()) return header_lines.status();
  ModelExchange exchange;
  exchange.http.url = url_;
  exchange.http.headers = std::move(*header_lines);
  exchange.http.body = std::move(*body);
  exchange.http.timeouts = config_.timeouts;
  exchange.http.accept_compressed = !stream;
  exchange.stream = stream;
  exchange.provider = info_.name;
  exchange.model = request.model.empty() ? config_.model : request.model;
  const std::string& issuer = dialect_.issuer;
  return run_model_exchange(exchange, context, [&issuer](const StreamCallback* on_event) {
    return std::make_unique<ResponsesStreamAssembler>(issuer, on_event);
  });
}

Result<std::vector<std::string>> OpenAiResponsesProvider::headers(const CallContext& context,
                                                                  bool stream) const {
  std::vector<std::string> lines;
  lines.reserve(config_.headers.size() + 2);
  lines.emplace_back(stream ? "Accept: text/event-stream" : "Accept: application/json");
  const std::string& key = context.api_key.empty() ? config_.api_key : context.api_key;
  HERMES_RETURN_IF_ERROR(check_header_value("api_key", key));
  if (!key.empty()) lines.push_back("Authorization: Bearer " + key);
  for (const auto& [name, value] : config_.headers) lines.push_back(name + ": " + value);
  return lines;
}

}  // namespace hermes::internal
