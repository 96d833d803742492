#include "providers/anthropic_answer.hpp"

#include <utility>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/anthropic_blocks.hpp"
#include "providers/error_body.hpp"

namespace hermes::internal {
namespace {

// Overwrites `counter` when `usage` states it as a number.
void take(const Json& usage, const char* key, int64_t& counter) {
  auto it = usage.find(key);
  if (it == usage.end()) return;
  if (auto n = json_integer(*it)) counter = *n;
}

// Anthropic's documented status for each error type.
int status_of_error_type(std::string_view type) {
  static constexpr std::pair<std::string_view, int> kStatuses[] = {
      {"invalid_request_error", 400}, {"authentication_error", 401},
      {"billing_error", 402},         {"permission_error", 403},
      {"not_found_error", 404},       {"request_too_large", 413},
      {"rate_limit_error", 429},      {"api_error", 500},
      {"timeout_error", 504},         {"overloaded_error", 529}};
  for (const auto& [name, status] : kStatuses) {
    if (name == type) return status;
  }
  return 0;
}

}  // namespace

void AnthropicUsage::update(const Json& usage) {
  if (!usage.is_object()) return;
  reported = true;
  take(usage, "input_tokens", input_tokens);
  take(usage, "cache_creation_input_tokens", cache_creation_tokens);
  take(usage, "cache_read_input_tokens", cache_read_tokens);
  take(usage, "output_tokens", output_tokens);
  if (auto details = usage.find("output_tokens_details");
      details != usage.end() && details->is_object()) {
    take(*details, "thinking_tokens", thinking_tokens);
  }
}

Usage AnthropicUsage::normalized() const {
  Usage out;
  if (!reported) return out;
  out.reported = true;
  out.input_tokens = input_tokens + cache_creation_tokens + cache_read_tokens;
  out.output_tokens = output_tokens;
  out.cache_read_tokens = cache_read_tokens;
  out.cache_write_tokens = cache_creation_tokens;
  out.reasoning_tokens = thinking_tokens;
  return out;
}

std::string anthropic_finish_reason(std::string_view stop_reason, bool has_tool_calls) {
  if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return "stop";
  if (stop_reason == "tool_use") return "tool_calls";
  if (stop_reason == "max_tokens" || stop_reason == "model_context_window_exceeded") {
    return "length";
  }
  if (stop_reason == "refusal") return "content_filter";
  // The server paused a long turn; sending it back as it is lets the model continue.
  if (stop_reason == "pause_turn") return "incomplete";
  return has_tool_calls ? "tool_calls" : "stop";
}

ProviderResponse anthropic_answer(const AnthropicContent& content, std::string_view stop_reason,
                                  const AnthropicUsage& usage) {
  ProviderResponse answer;
  Message& message = answer.message;
  message.role = Role::kAssistant;
  Json thinking_blocks = Json::array();
  Json ordered = Json::array();
  std::string text;
  std::size_t next_call = 0;
  for (const Json& block : content.blocks) {
    const std::string type = string_member(block, "type");
    if (type == "text") {
      if (!text.empty()) text += '\n';
      text += string_member(block, "text");
      ordered.push_back(anthropic::text_block(string_member(block, "text")));
    } else if (type == "thinking" || type == "redacted_thinking") {
      const std::string thinking = string_member(block, "thinking");
      if (!thinking.empty()) {
        if (!message.reasoning.empty()) message.reasoning += '\n';
        message.reasoning += thinking;
      }
      if (auto clean = anthropic::replayable_block(block)) {
        thinking_blocks.push_back(*clean);
        ordered.push_back(std::move(*clean));
      }
    } else if (type == "tool_use") {
      ToolCall call;
      call.id = string_member(block, "id");
      call.name = string_member(block, "name");
      call.arguments = next_call < content.arguments.size() ? content.arguments[next_call] : "{}";
      ++next_call;
      ordered.push_back({{"type", "tool_use"},
                         {"id", call.id},
                         {"name", call.name},
                         {"input", block.contains("input") ? block["input"] : Json::object()}});
      message.tool_calls.push_back(std::move(call));
    }
  }
  message.content = std::move(text);
  if (!thinking_blocks.empty()) {
    if (!message.tool_calls.empty()) message.anthropic_content_blocks = std::move(ordered);
    message.reasoning_details = std::move(thinking_blocks);
  }
  message.finish_reason = anthropic_finish_reason(stop_reason, !message.tool_calls.empty());
  answer.usage = usage.normalized();
  return answer;
}

ApiError anthropic_error(const Json& error, std::string_view raw) {
  const Json& object = error.is_object() && error.contains("error") && error["error"].is_object()
                           ? error["error"]
                           : error;
  const ErrorBody body = read_error_body(Json{{"error", object}});
  ApiError out;
  out.message = best_error_message(body, raw);
  if (out.message.empty()) out.message = "the server reported an error without details";
  out.error_code = body.code;
  out.http_status = status_of_error_type(string_member(object, "type"));
  if (out.http_status == 0) out.http_status = body.status.value_or(0);
  out.body = truncate_utf8(raw, kMaxErrorBodyBytes);
  return out;
}

}  // namespace hermes::internal
