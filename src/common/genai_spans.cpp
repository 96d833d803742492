// GenAI-convention spans and metrics of model calls (see genai_spans.hpp).
#include "common/genai_spans.hpp"

#include <string>
#include <utility>
#include <vector>

namespace hermes::internal {
namespace {

// The host of a base URL ("https://api.openai.com/v1" -> "api.openai.com").
std::string server_address(std::string_view base_url) {
  const auto scheme = base_url.find("://");
  if (scheme != std::string_view::npos) base_url.remove_prefix(scheme + 3);
  const auto end = base_url.find_first_of(":/?#");
  return std::string(base_url.substr(0, end));
}

// The attributes every metric of a model call carries.
std::vector<Attribute> metric_attributes(const ProviderInfo& provider,
                                         const ProviderRequest& request) {
  return {{"gen_ai.operation.name", std::string("chat")},
          {"gen_ai.system", provider.name},
          {"gen_ai.request.model", request.model}};
}

void record_call_metrics(TraceSink* sink, const ProviderInfo& provider,
                         const ProviderRequest& request, std::string_view error_type,
                         std::chrono::steady_clock::duration took) {
  std::vector<Attribute> attributes = metric_attributes(provider, request);
  if (!error_type.empty()) attributes.push_back({"error.type", std::string(error_type)});
  record_metric(sink, "gen_ai.client.operation.duration", MetricKind::kHistogram, "s",
                std::chrono::duration<double>(took).count(), attributes);
  record_metric(sink, "hermes.model_calls", MetricKind::kCounter, "{call}", 1, attributes);
  if (!error_type.empty()) {
    record_metric(sink, "hermes.errors", MetricKind::kCounter, "{error}", 1, std::move(attributes));
  }
}

}  // namespace

ActiveSpan start_model_call_span(const SpanParent& parent, const ProviderInfo& provider,
                                 const ProviderRequest& request, int attempt,
                                 std::string_view purpose) {
  if (!parent) return {};
  std::vector<Attribute> attributes = metric_attributes(provider, request);
  attributes.push_back({"gen_ai.provider.name", provider.name});
  attributes.push_back({"server.address", server_address(provider.base_url)});
  attributes.push_back({"hermes.api_mode", provider.api_mode});
  attributes.push_back({"hermes.attempt", int64_t{attempt}});
  if (!purpose.empty()) attributes.push_back({"hermes.call.purpose", std::string(purpose)});
  if (request.max_tokens) attributes.push_back({"gen_ai.request.max_tokens", *request.max_tokens});
  if (request.temperature) {
    attributes.push_back({"gen_ai.request.temperature", *request.temperature});
  }
  attributes.push_back({"hermes.request.messages", static_cast<int64_t>(request.messages.size())});
  return ActiveSpan(parent, "chat " + request.model, SpanKind::kClient, std::move(attributes));
}

void end_model_call_span(ActiveSpan& span, const ProviderInfo& provider,
                         const ProviderRequest& request, const ProviderResponse& response,
                         std::chrono::steady_clock::duration took) {
  if (!span) return;
  const std::string& served = response.served_model.empty() ? request.model : response.served_model;
  span.set("gen_ai.response.model", served);
  if (!response.response_id.empty()) span.set("gen_ai.response.id", response.response_id);
  if (!response.message.finish_reason.empty()) {
    span.set("gen_ai.response.finish_reasons",
             std::vector<std::string>{response.message.finish_reason});
  }
  const Usage& usage = response.usage;
  span.set("gen_ai.usage.input_tokens", usage.input_tokens);
  span.set("gen_ai.usage.output_tokens", usage.output_tokens);
  if (usage.cache_read_tokens > 0) {
    span.set("gen_ai.usage.cache_read.input_tokens", usage.cache_read_tokens);
  }
  if (usage.reasoning_tokens > 0) span.set("hermes.usage.reasoning_tokens", usage.reasoning_tokens);
  span.set("hermes.response.tool_calls", static_cast<int64_t>(response.message.tool_calls.size()));

  TraceSink* sink = span.as_parent().sink.get();
  record_call_metrics(sink, provider, request, {}, took);
  std::vector<Attribute> attributes = metric_attributes(provider, request);
  attributes.push_back({"gen_ai.response.model", served});
  for (const auto& [type, count] :
       {std::pair{"input", usage.input_tokens}, std::pair{"output", usage.output_tokens}}) {
    std::vector<Attribute> typed = attributes;
    typed.push_back({"gen_ai.token.type", std::string(type)});
    record_metric(sink, "gen_ai.client.token.usage", MetricKind::kHistogram, "{token}",
                  static_cast<double>(count), std::move(typed));
  }
  span.end();
}

void fail_model_call_span(ActiveSpan& span, const ProviderInfo& provider,
                          const ProviderRequest& request, std::string_view error_type,
                          std::string_view message, int http_status,
                          std::chrono::steady_clock::duration took) {
  if (!span) return;
  span.set_error(error_type, message);
  if (http_status != 0) span.set("http.response.status_code", int64_t{http_status});
  record_call_metrics(span.as_parent().sink.get(), provider, request, error_type, took);
  span.end();
}

}  // namespace hermes::internal
