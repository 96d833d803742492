// Text response: the model answered without tools. Recover from empty and truncated
// answers in upstream's order, then accept the answer and persist it.
#include <fmt/format.h>

#include <utility>

#include "agent/intent_ack.hpp"
#include "agent/output_boost.hpp"
#include "agent/structured_output.hpp"
#include "agent/turn_runner.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxContinuations = 4;
constexpr int kMaxEmptyRetries = 3;
constexpr int kMaxThinkingPrefills = 2;
constexpr int kMaxIntentAckNudges = 2;
constexpr int kMaxDroppedToolCallPrompts = 3;

constexpr std::string_view kContinuePrompt =
    "[System: Your previous response was truncated by the output length limit. Continue exactly "
    "where you left off. Do not restart or repeat prior text. Finish the answer directly.]";
constexpr std::string_view kPostToolNudge =
    "You just executed tool calls but returned an empty response. Please process the tool "
    "results above and continue with the task.";
constexpr std::string_view kIntentAckNudge =
    "[System: Continue now. Execute the required tool calls and only send your final answer "
    "after completing the task.]";
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

// The empty-answer ladder, each rung once and in this order: text streamed before the
// empty reply; text written beside bookkeeping tool calls; a nudge after tool results; the
// reasoning replayed as a prefill; plain retries; the fallback provider; then a turn that
// ends without an answer.
TurnRunner::EmptyAnswer TurnRunner::recover_empty_answer(const Message& msg, std::string& visible) {
  if (std::string streamed = strip_think_blocks(st_.streamed_text); !streamed.empty()) {
    visible = std::move(streamed);
    st_.exit_reason = "partial_stream_recovery";
    return EmptyAnswer::kDeliver;
  }
  // Silence after bookkeeping calls: the text written beside them was the answer.
  if (!st_.last_content_with_tools.empty() && st_.last_content_tools_all_housekeeping) {
    visible = std::exchange(st_.last_content_with_tools, std::string());
    st_.last_content_tools_all_housekeeping = false;
    st_.exit_reason = "fallback_prior_turn_content";
    status("warning",
           "\xE2\x86\xBB Empty response after tool calls \xE2\x80\x94 using earlier "
           "content as final answer");
    return EmptyAnswer::kDeliver;
  }
  // Think tags in the content mean the model is still working: the prefill rung serves
  // it better than the nudge.
  const bool inline_thinking = !is_blank(msg.content);
  const bool thought =
      inline_thinking || !msg.reasoning.empty() || !msg.reasoning_details.is_null();
  if (!st_.post_tool_nudged && !inline_thinking && !st_.messages.empty() &&
      st_.messages.back().role == Role::kTool) {
    st_.post_tool_nudged = true;
    st_.last_content_with_tools.clear();  // Mid-task narration must not resurface later.
    status("warning",
           "\xE2\x9A\xA0\xEF\xB8\x8F Model returned empty after tool calls \xE2\x80\x94 nudging to "
           "continue");
    append(scaffold(Message::assistant("(empty)")));
    append(scaffold(Message::user(std::string(kPostToolNudge))));
    return EmptyAnswer::kRetry;
  }
  // The reasoning goes back as an assistant prefill, so the model continues from its
  // thoughts instead of starting over; a second prefill takes the first one's place.
  if (thought && st_.thinking_prefill_retries < kMaxThinkingPrefills) {
    ++st_.thinking_prefill_retries;
    status("warning",
           fmt::format(
               "\xE2\x86\xBB Thinking-only response \xE2\x80\x94 prefilling to continue ({}/{})",
               st_.thinking_prefill_retries, kMaxThinkingPrefills));
    Message prefill = scaffold(msg);
    prefill.finish_reason.clear();
    if (!st_.messages.empty() && st_.messages.back().scaffolding &&
        st_.messages.back().role == Role::kAssistant && st_.messages.back().tool_calls.empty()) {
      st_.messages.back() = std::move(prefill);
    } else {
      append(std::move(prefill));
    }
    return EmptyAnswer::kRetry;
  }
  if (st_.empty_retries < kMaxEmptyRetries) {
    ++st_.empty_retries;
    status("warning",
           fmt::format(
               "\xE2\x9A\xA0\xEF\xB8\x8F Empty response from model \xE2\x80\x94 retrying ({}/{})",
               st_.empty_retries, kMaxEmptyRetries));
    return EmptyAnswer::kRetry;
  }
  // Another provider may answer where this one keeps returning nothing. The switch is not
  // a model turn, so its iteration is refunded.
  ApiError nothing;
  nothing.message = "the model returned an empty response after every retry";
  if (switch_to_fallback(nothing)) {
    st_.empty_retries = 0;
    return EmptyAnswer::kRetryUncounted;
  }
  // The sentinel, never the reasoning: a later "continue" must not replay it.
  st_.final_response = "(empty)";
  st_.exit_reason = "empty_response_exhausted";
  status("warning", thought ? "\xE2\x9A\xA0\xEF\xB8\x8F Model produced reasoning but no visible "
                              "response after all retries"
                            : "\xE2\x9D\x8C Model returned no content after all retries");
  append(Message::assistant("(empty)"));
  flush();
  return EmptyAnswer::kGiveUp;
}

// Upstream's default watches only Responses-API models: they are the ones seen to announce
// the work and end the turn. The announcement stays in the transcript, as upstream keeps it.
bool TurnRunner::nudge_intent_ack(const Message& msg, const std::string& visible) {
  if (st_.intent_ack_nudges >= kMaxIntentAckNudges || st_.offered_tools.empty()) return false;
  if (core_.runtime->provider().info().api_mode != kApiModeResponses) return false;
  if (!looks_like_intent_ack(input_.user_message, visible, st_.messages, st_.user_index)) {
    return false;
  }
  ++st_.intent_ack_nudges;
  status("warning", fmt::format("\xE2\x86\xBB The model announced work without doing it "
                                "\xE2\x80\x94 asking it to continue ({}/{})",
                                st_.intent_ack_nudges, kMaxIntentAckNudges));
  Message ack = msg;
  ack.content = visible;
  ack.finish_reason = "incomplete";
  append(std::move(ack));
  append(Message::user(std::string(kIntentAckNudge)));
  flush();
  return true;
}

StepEnd TurnRunner::accept_text_response(ProviderResponse& response) {
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
        "\xE2\x80\x94 not a Hermes/gateway failure).\n\n" +
        detail +
        "\n\nTry rephrasing the request, narrowing the context, or adding a fallback provider.";
    fail("content_policy_blocked: " + detail, "content_policy_blocked");
    append(Message::assistant(*st_.final_response));
    return StepEnd::kTurnOver;
  }

  if (finish == "length") {
    if (visible.empty() && !msg.reasoning.empty()) {
      st_.partial = true;
      st_.final_response =
          "\xE2\x9A\xA0\xEF\xB8\x8F **Thinking Budget Exhausted**\n\nThe model spent its whole "
          "output "
          "budget reasoning and produced no answer. Raise max_tokens or lower the reasoning "
          "effort.";
      st_.exit_reason = "thinking_budget_exhausted";
      append(Message::assistant(*st_.final_response));
      return StepEnd::kTurnOver;
    }
    if (static_cast<int>(st_.continuation_parts.size()) < kMaxContinuations) {
      st_.continuation_parts.push_back(raw);
      st_.next_max_tokens = boosted_output_cap(core_.options.request.max_tokens,
                                               static_cast<int>(st_.continuation_parts.size()));
      append(scaffold(Message::assistant(visible)));
      append(scaffold(Message::user(std::string(kContinuePrompt))));
      return StepEnd::kNext;
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
      return StepEnd::kNext;
    }
    switch (recover_empty_answer(msg, visible)) {
      case EmptyAnswer::kRetry:
        return StepEnd::kNext;
      case EmptyAnswer::kRetryUncounted:
        return StepEnd::kRepeat;
      case EmptyAnswer::kGiveUp:
        return StepEnd::kTurnOver;
      case EmptyAnswer::kDeliver:
        break;
    }
  }

  if (finish != "length" && st_.continuation_parts.empty() && nudge_intent_ack(msg, visible)) {
    return StepEnd::kNext;
  }
  std::string answer =
      st_.continuation_parts.empty() ? visible : strip(join(st_.continuation_parts) + raw);
  if (auto transformed = core_.hooks.transform_llm_output(answer)) answer = std::move(*transformed);
  if (!turn_output().schema.is_null() && !accept_structured_text(answer)) {
    if (st_.failed) {
      msg.content = answer;
      append(std::move(msg));
      flush();
      st_.final_response = std::move(answer);
      return StepEnd::kTurnOver;
    }
    return StepEnd::kNext;  // Asked again.
  }
  msg.content = answer;
  msg.finish_reason = finish;
  append(std::move(msg));
  flush();
  st_.final_response = std::move(answer);
  if (st_.exit_reason.empty()) st_.exit_reason = "text_response(finish_reason=" + finish + ")";
  return StepEnd::kTurnOver;
}

// A text answer checked against the output schema: true when it matches (the value is
// kept). Otherwise it is sent back with what is wrong while repairs are left (false), and
// then the turn fails (false, st_.failed set).
bool TurnRunner::accept_structured_text(const std::string& answer) {
  const AgentOptions::Output& output = turn_output();
  CheckedAnswer checked = check_answer(answer, output.schema);
  if (checked.value) {
    st_.output = std::move(checked.value);
    return true;
  }
  if (st_.output_repairs < output.max_repairs) {
    ++st_.output_repairs;
    status("warning",
           "The answer does not match the output schema (" + checked.problem + "); asking again");
    append(scaffold(Message::assistant(answer)));
    append(scaffold(Message::user(repair_prompt(checked.problem))));
    return false;
  }
  fail("output_schema_mismatch: " + checked.problem, "output_schema_mismatch");
  return false;
}

}  // namespace hermes::internal
