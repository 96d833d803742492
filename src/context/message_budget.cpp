#include "context/message_budget.hpp"

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "context/message_parts.hpp"
#include "context/text_cut.hpp"
#include "hermes/token_estimate.hpp"

namespace hermes::internal {
namespace {

constexpr int64_t kMessageOverheadTokens = 10;

int64_t content_tokens(const Message& m) {
  if (!m.parts.is_array()) return estimate_tokens_rough(m.wire_text());
  int64_t chars = 0;
  for (const auto& part : m.parts) {
    if (is_image_part(part)) {
      chars += kImageTokens * kCharsPerToken;
    } else if (part.is_object()) {
      auto text = part.find("text");
      if (text != part.end() && text->is_string()) {
        chars += static_cast<int64_t>(utf8_length(text->get_ref<const std::string&>()));
      }
    }
  }
  return chars / kCharsPerToken;
}

int64_t json_chars(const Json& value) {
  if (value.is_null()) return 0;
  if (value.is_string())
    return static_cast<int64_t>(utf8_length(value.get_ref<const std::string&>()));
  return static_cast<int64_t>(utf8_length(dump_json(value)));
}

int64_t tool_call_tokens(const ToolCall& call) {
  Json envelope = {{"id", call.id},
                   {"type", "function"},
                   {"function", {{"name", call.name}, {"arguments", call.arguments}}}};
  return estimate_tokens_rough(dump_json(envelope));
}

}  // namespace

int64_t estimate_message_budget_tokens(const Message& message) {
  int64_t tokens = content_tokens(message) + kMessageOverheadTokens;
  for (const auto& call : message.tool_calls) tokens += tool_call_tokens(call);
  int64_t replay_chars = static_cast<int64_t>(utf8_length(message.reasoning));
  replay_chars += json_chars(message.reasoning_details);
  replay_chars += json_chars(message.codex_reasoning_items);
  replay_chars += json_chars(message.codex_message_items);
  return tokens + replay_chars / kCharsPerToken;
}

int64_t estimate_budget_tokens(const std::vector<Message>& messages) {
  int64_t total = 0;
  for (const auto& m : messages) total += estimate_message_budget_tokens(m);
  return total;
}

}  // namespace hermes::internal
