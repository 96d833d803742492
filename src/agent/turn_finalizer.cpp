// Turn finalizer: the max-iterations summary, transcript invariants, the last flush, and
// the result. Each step is guarded so one failing cannot lose the answer.
#include <algorithm>
#include <utility>

#include "agent/background_review.hpp"
#include "agent/memory_provider_call.hpp"
#include "agent/turn_runner.hpp"
#include "common/text_utils.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kMaxIterationsPrompt =
    "You've reached the maximum number of tool-calling iterations allowed. Please provide a "
    "final response summarizing what you've found and accomplished so far, without calling any "
    "more tools.";

}  // namespace

void TurnRunner::summarize_after_budget() {
  append(Message::user(std::string(kMaxIterationsPrompt)));
  flush();
  const bool failed_before = st_.failed;
  auto response = call_model_on_transcript(/*with_tools=*/false).response;
  std::string text;
  if (response) {
    record_usage(*response);
    ++st_.summary_calls;
    text = strip_think_blocks(response->message.content);
    if (text.empty()) text = "I reached the iteration limit and couldn't generate a summary.";
  } else if (st_.interrupted) {
    return;
  } else {
    text = "I reached the maximum iterations (" + std::to_string(core_.options.max_iterations) +
           ") but couldn't summarize. Error: " + st_.error;
    // The summary is best effort: its failure does not fail the turn.
    st_.failed = failed_before;
    st_.error.clear();
  }
  append(Message::assistant(text));
  st_.final_response = std::move(text);
  st_.exit_reason = "max_iterations_reached(" + std::to_string(st_.budget.used()) + "/" +
                    std::to_string(st_.budget.max_total()) + ")";
}

void TurnRunner::remove_scaffolding() {
  std::size_t cursor = core_.writer.cursor();
  std::size_t removed_before_cursor = 0;
  for (std::size_t i = 0; i < std::min(cursor, st_.messages.size()); ++i) {
    if (st_.messages[i].scaffolding) ++removed_before_cursor;
  }
  st_.messages.erase(std::remove_if(st_.messages.begin(), st_.messages.end(),
                                    [](const Message& m) { return m.scaffolding; }),
                     st_.messages.end());
  core_.writer.reset(core_.writer.session_id(), cursor - removed_before_cursor);
}

void TurnRunner::finalize() {
  if (st_.budget_exhausted && !st_.final_response && !st_.failed && !st_.interrupted) {
    summarize_after_budget();
  }
  remove_scaffolding();

  if (st_.interrupted && !st_.final_response) {
    // Text streamed before the interrupt is kept as the answer.
    std::string text = strip_think_blocks(st_.streamed_text);
    if (!text.empty()) {
      append(Message::assistant(text));
      st_.final_response = text;
    } else if (!st_.messages.empty() && st_.messages.back().role == Role::kTool) {
      append(Message::assistant("Operation interrupted."));
    }
  }
  if (!st_.final_response && !st_.failed && !st_.interrupted && !st_.messages.empty() &&
      st_.messages.back().role == Role::kTool) {
    st_.final_response =
        "No reply: the turn stopped while a tool result was still pending. Send `continue` to "
        "let the model summarize.";
    st_.failed = true;
  }
  // A delivered answer always has its assistant row.
  if (st_.final_response && (st_.messages.empty() || st_.messages.back().role != Role::kAssistant ||
                             st_.messages.back().content != *st_.final_response)) {
    if (!st_.messages.empty() && st_.messages.back().role == Role::kAssistant &&
        is_blank(st_.messages.back().content) && !st_.messages.back().tool_calls.empty()) {
      st_.messages.back().content = *st_.final_response;
    } else {
      append(Message::assistant(*st_.final_response));
    }
  }

  flush();
  core_.transcript = st_.messages;
  if (st_.final_response) core_.hooks.post_llm_call(input_.user_message, *st_.final_response);
  if (core_.store) core_.hooks.on_session_end(core_.session_id, st_.messages);
  if (core_.engine) core_.engine->on_turn_complete();

  const bool ends_in_tool = !st_.messages.empty() && st_.messages.back().role == Role::kTool;
  internal::log(ends_in_tool ? LogLevel::kWarning : LogLevel::kInfo,
                "turn {} ended: exit_reason={} api_calls={} messages={} response_chars={}",
                st_.turn_id, st_.exit_reason, st_.api_calls(), st_.messages.size(),
                st_.final_response ? st_.final_response->size() : 0);
}

ConversationResult TurnRunner::build_result() {
  ConversationResult r;
  r.final_response = st_.final_response;
  r.output = st_.output;
  r.last_reasoning = st_.last_reasoning;
  r.api_calls = st_.api_calls();
  r.failed = st_.failed;
  r.partial = st_.partial;
  r.interrupted = st_.interrupted;
  r.completed = st_.final_response.has_value() && !st_.failed && !st_.interrupted && !st_.partial &&
                (st_.api_calls() < core_.options.max_iterations ||
                 st_.exit_reason.starts_with("text_response"));
  r.exit_reason = st_.exit_reason;
  r.error = st_.error;
  r.failure_reason = st_.failure_reason;
  r.interrupt_message = st_.interrupted ? core_.control.interrupt_message() : "";
  r.pending_steer = core_.control.take_steer();
  r.session_id = core_.session_id;
  r.turn_id = st_.turn_id;
  r.model = core_.runtime->model();
  const ProviderInfo& info = core_.runtime->provider().info();
  r.provider = info.name;
  r.base_url = info.base_url;
  r.usage = st_.usage;
  r.last_prompt_tokens = st_.last_prompt_tokens;
  r.messages = std::move(st_.messages);  // The last use of the working transcript.
  core_.control.end_turn();
  return r;
}

void TurnRunner::after_turn(const ConversationResult& result) {
  const bool skills_due = core_.nudges.end_turn_skill_review();
  if (!result.final_response || result.interrupted || result.failed) return;
  call_memory_provider(core_.options.memory_provider.get(), "sync_turn", [&](MemoryProvider& p) {
    p.sync_turn(input_.user_message, *result.final_response, core_.session_id, result.messages);
  });
  // The answer is already delivered; the review works on a copy of the transcript.
  start_background_review(core_, {st_.memory_review_due, skills_due}, result.messages);
}

}  // namespace hermes::internal
