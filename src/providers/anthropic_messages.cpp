#include "providers/anthropic_messages.hpp"

#include <memory>
#include <utility>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/anthropic_dialect.hpp"
#include "providers/anthropic_request_builder.hpp"
#include "providers/anthropic_stream_assembler.hpp"
#include "providers/model_exchange.hpp"

namespace hermes::internal {
namespace {

constexpr const char* kAnthropicVersion = "anthropic-version: 2023-06-01";

// Exactly one credential header: sending both would ship a foreign credential to a
// third-party endpoint.
Result<std::vector<std::string>> header_lines(const ProviderConfig& config,
                                              const AnthropicDialect& dialect,
                                              const std::string& key, bool stream) {
  HERMES_RETURN_IF_ERROR(check_header_value("api_key", key));
  std::vector<std::string> lines;
  lines.reserve(config.headers.size() + 4);
  lines.emplace_back(stream ? "Accept: text/event-stream" : "Accept: application/json");
  lines.emplace_back(kAnthropicVersion);
  if (!key.empty()) {
    lines.push_back(dialect.bearer_auth ? "Authorization: Bearer " + key : "x-api-key: " + key);
  }
  if (!dialect.betas.empty()) lines.push_back("anthropic-beta: " + dialect.betas);
  for (const auto& [name, value] : config.headers) lines.push_back(name + ": " + value);
  return lines;
}

}  // namespace

std::string anthropic_messages_url(std::string base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  if (base_url.size() >= 3 &&
      iequals(std::string_view(base_url).substr(base_url.size() - 3), "/v1")) {
    base_url.resize(base_url.size() - 3);
  }
  return base_url + "/v1/messages";
}

AnthropicMessagesProvider::AnthropicMessagesProvider(ProviderConfig config)
    : config_(std::move(config)) {
  info_.name = config_.provider.empty() ? "custom" : config_.provider;
  info_.api_mode = std::string(kApiModeAnthropic);
  info_.base_url = config_.base_url;
  info_.model = config_.model;
  url_ = anthropic_messages_url(config_.base_url);
}

Result<ProviderResponse> AnthropicMessagesProvider::complete(const ProviderRequest& request,
                                                             const CallContext& context) {
  if (context.cancel.cancelled()) {
    return Status::cancelled("the call was cancelled before it started");
  }
  const std::string& key = context.api_key.empty() ? config_.api_key : context.api_key;
  const std::string& model = request.model.empty() ? config_.model : request.model;
  const AnthropicDialect dialect = anthropic_dialect_for(config_.base_url, key, model);
  auto body = encode_anthropic_request(request, dialect, config_.model);
  if (!body.ok()) return body.status();
  auto headers = header_lines(config_, dialect, key, request.stream);
  if (!headers.ok()) return headers.status();
  ModelExchange exchange;
  exchange.http.url = url_;
  exchange.http.headers = std::move(*headers);
  exchange.http.body = std::move(*body);
  exchange.http.timeouts = config_.timeouts;
  exchange.http.accept_compressed = !request.stream;
  exchange.stream = request.stream;
  exchange.provider = info_.name;
  exchange.model = model;
  return run_model_exchange(exchange, context, [](const StreamCallback* on_event) {
    return std::make_unique<AnthropicStreamAssembler>(on_event);
  });
}

}  // namespace hermes::internal
