// Turn, step and tool spans (see turn_trace.hpp).
#include "agent/turn_trace.hpp"

#include <string>
#include <utility>

#include "hermes/redaction.hpp"

namespace hermes::internal {
namespace {

// A message list in the GenAI conventions' shape, as one JSON string attribute.
std::string captured_messages(std::string_view role, std::string_view text) {
  Json parts = Json::array({{{"type", "text"}, {"content", redact_sensitive_text(text)}}});
  return Json::array({{{"role", role}, {"parts", std::move(parts)}}})
      .dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

void TurnTrace::begin(const TracingOptions& options, std::string_view user_message) {
  if (!options.sink) return;
  SpanParent parent{options.sink, {}, options.capture_content};
  if (auto remote = SpanContext::from_traceparent(options.traceparent)) parent.context = *remote;
  turn_ = ActiveSpan(parent, "invoke_agent hermes", SpanKind::kInternal,
                     {{"gen_ai.operation.name", std::string("invoke_agent")},
                      {"gen_ai.agent.name", std::string("hermes")}});
  if (options.capture_content) {
    turn_.set("gen_ai.input.messages", captured_messages("user", user_message));
  }
}

void TurnTrace::identify(std::string_view session_id, std::string_view turn_id,
                         const ProviderInfo& provider, std::string_view model) {
  if (!turn_) return;
  turn_.set("gen_ai.conversation.id", std::string(session_id));
  turn_.set("hermes.turn.id", std::string(turn_id));
  turn_.set("gen_ai.system", provider.name);
  turn_.set("gen_ai.request.model", std::string(model));
}

void TurnTrace::end(const ConversationResult& result) {
  if (!turn_) return;
  turn_.set("hermes.exit_reason", result.exit_reason);
  turn_.set("hermes.api_calls", int64_t{result.api_calls});
  turn_.set("gen_ai.usage.input_tokens", result.usage.input_tokens);
  turn_.set("gen_ai.usage.output_tokens", result.usage.output_tokens);
  if (result.interrupted) turn_.set("hermes.interrupted", true);
  if (result.failed) {
    const std::string& type =
        result.failure_reason.empty() ? result.exit_reason : result.failure_reason;
    turn_.set_error(type, redact_sensitive_text(result.error));
  }
  if (turn_.capture_content() && result.final_response) {
    turn_.set("gen_ai.output.messages", captured_messages("assistant", *result.final_response));
  }
  turn_.end();
}

StepSpan::StepSpan(const SpanParent& turn, int number)
    : span_(turn, "hermes.step", SpanKind::kInternal, {{"hermes.step.number", int64_t{number}}}),
      scope_(span_.as_parent()),
      started_(std::chrono::steady_clock::now()) {}

StepSpan::~StepSpan() {
  if (!span_) return;
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started_;
  record_metric(span_.as_parent().sink.get(), "hermes.step.duration", MetricKind::kHistogram, "s",
                took.count(), {});
}

ToolSpan::ToolSpan(const SpanParent& parent, const ToolCall& call, const Json& arguments)
    : tool_name_(call.name) {
  if (!parent) return;
  span_ = ActiveSpan(parent, "execute_tool " + call.name, SpanKind::kInternal,
                     {{"gen_ai.operation.name", std::string("execute_tool")},
                      {"gen_ai.tool.name", call.name},
                      {"gen_ai.tool.call.id", call.id},
                      {"gen_ai.tool.type", std::string("function")}});
  if (parent.capture_content) {
    span_.set("gen_ai.tool.call.arguments", redact_sensitive_text(arguments.dump(
                                                -1, ' ', false, Json::error_handler_t::replace)));
  }
}

void ToolSpan::finish(std::string_view result, bool is_error, std::string_view error_type) {
  if (!span_ || finished_.exchange(true)) return;
  std::vector<Attribute> attributes{{"gen_ai.tool.name", tool_name_}};
  if (is_error) {
    span_.set_error(error_type, "the tool answered with an error");
    attributes.push_back({"error.type", std::string(error_type)});
  }
  if (span_.capture_content()) span_.set("gen_ai.tool.call.result", redact_sensitive_text(result));
  TraceSink* sink = span_.as_parent().sink.get();
  record_metric(sink, "hermes.tool_calls", MetricKind::kCounter, "{call}", 1, attributes);
  if (is_error) {
    record_metric(sink, "hermes.errors", MetricKind::kCounter, "{error}", 1,
                  {{"error.type", std::string(error_type)}});
  }
  span_.end();
}

}  // namespace hermes::internal
