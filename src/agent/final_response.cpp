// Text response: the model answered without tools. Recover from empty and truncated
// answers in upstream's order, then accept the answer and persist it.
#include "agent/text_utils.hpp"
#include "agent/turn_runner.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxContinuations = 4;
constexpr int kMaxEmptyRetries = 3;
constexpr int kMaxDroppedToolCallPrompts = 3;

constexpr std::string_view kContinuePrompt =
    "[System: Your previous response was truncated by the output length limit. Continue exactly "
    "where you left off. Do not restart or repeat prior text. Finish the answer directly.]";
constexpr std::string_view kPostToolNudge =
    "You just executed tool calls but returned an empty response. Please process the tool "
    "results above and continue with the task.";
constexpr std::string_view kDroppedToolCallPrompt =
    "Your previous turn indicated a tool call but none was included. Do not narrate a plan or "
    "restate intent \xE2\x80\x94 issue the actual tool call now to continue the task.";

Message scaffold(Message m) {
  m.scaffolding = true;
  return m;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += p;
  return out;
}

}  // namespace

bool TurnRunner::accept_text_response(ProviderResponse& response) {
  Message& msg = response.message;
  const std::string finish = msg.finish_reason.empty() ? "stop" : msg.finish_reason;
  // Continuation parts keep their edge whitespace: a model told to continue exactly where
  // it stopped often starts with the space that ends the previous part.
  const std::string raw = remove_think_blocks(msg.content);
  std::string visible = strip(raw);

  if (finish == "content_filter") {
    const std::string detail = visible.empty() ? "finish_reason=content_filter" : visible;
    st_.final_response =
        "\xE2\x9A\xA0\xEF\xB8\x8F  The model declined to respond to this request (safety refusal "
        "\xE2\x80\x94 not a Hermes/gateway failure).\n\n" + detail +
        "\n\nTry rephrasing the request, narrowing the context, or adding a fallback provider.";
    fail("content_policy_blocked: " + detail, "content_policy_blocked");
    append(Message::assistant(*st_.final_response));
    return false;
  }

  if (finish == "length") {
    if (visible.empty() && !msg.reasoning.empty()) {
      st_.partial = true;
      st_.final_response =
          "\xE2\x9A\xA0\xEF\xB8\x8F **Thinking Budget Exhausted**\n\nThe model spent its whole output "
          "budget reasoning and produced no answer. Raise max_tokens or lower the reasoning effort.";
      st_.exit_reason = "thinking_budget_exhausted";
      append(Message::assistant(*st_.final_response));
      return false;
    }
    if (static_cast<int>(st_.continuation_parts.size()) < kMaxContinuations) {
      st_.continuation_parts.push_back(raw);
      append(scaffold(Message::assistant(visible)));
      append(scaffold(Message::user(std::string(kContinuePrompt))));
      return true;
    }
    st_.partial = true;
    st_.error = "Response remained truncated after " + std::to_string(kMaxContinuations) +
                " continuation attempts";
    st_.exit_reason = "truncated_response";
    // Fall through: deliver what was produced.
  }

  if (is_blank(visible) && st_.continuation_parts.empty()) {
    if (finish == "tool_calls" && st_.dropped_tool_call_prompts < kMaxDroppedToolCallPrompts) {
      ++st_.dropped_tool_call_prompts;
      append(scaffold(Message::assistant("")));
      append(scaffold(Message::user(std::string(kDroppedToolCallPrompt))));
      return true;
    }
    if (!is_blank(st_.streamed_text)) {
      visible = strip_think_blocks(st_.streamed_text);
      st_.exit_reason = "partial_stream_recovery";
    } else if (!st_.post_tool_nudged && !st_.messages.empty() &&
               st_.messages.back().role == Role::kTool) {
      st_.post_tool_nudged = true;
      append(scaffold(Message::assistant("(empty)")));
      append(scaffold(Message::user(std::string(kPostToolNudge))));
      return true;
    } else if (st_.empty_retries < kMaxEmptyRetries) {
      ++st_.empty_retries;
      return true;
    } else {
      st_.final_response = "(empty)";
      st_.exit_reason = "empty_response_exhausted";
      append(Message::assistant("(empty)"));
      flush();
      return false;
    }
  }

  std::string answer =
      st_.continuation_parts.empty() ? visible : strip(join(st_.continuation_parts) + raw);
  if (auto transformed = core_.hooks.transform_llm_output(answer)) answer = std::move(*transformed);
  msg.content = answer;
  msg.finish_reason = finish;
  append(std::move(msg));
  flush();
  st_.final_response = std::move(answer);
  if (st_.exit_reason.empty()) st_.exit_reason = "text_response(finish_reason=" + finish + ")";
  return false;
}

}  // namespace hermes::internal
