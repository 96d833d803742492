// Everything one turn tracks while it runs.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/iteration_budget.hpp"
#include "hermes/api_error.hpp"
#include "hermes/callbacks.hpp"
#include "hermes/cancel.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

struct TurnState {
  explicit TurnState(int max_iterations) : budget(max_iterations) {}

  // Identity.
  std::string task_id;
  std::string turn_id;
  std::optional<std::string> system_message;
  CancelToken cancel;

  // The working transcript: history, the user message, and what the turn adds.
  std::vector<Message> messages;
  std::size_t user_index = 0;
  std::vector<std::string> offered_tools;  // Names sent to the model this turn.

  // The turn's steps: each takes one before its model call, and a step that turns out
  // not to count (a compaction instead of the call, a switch of provider) gives it back.
  // It alone decides whether another step may run.
  IterationBudget budget;
  int summary_calls = 0;  // The tool-less summary after the budget ran out: not a step.

  // The model calls the turn reports (ConversationResult::api_calls): its counted steps and
  // the summary. As upstream's api_call_count, a refunded step is not among them.
  int api_calls() const { return budget.used() + summary_calls; }

  // Outcome.
  std::optional<std::string> final_response;
  std::string exit_reason;
  bool failed = false;
  bool partial = false;
  bool interrupted = false;
  bool budget_exhausted = false;
  std::string error;
  std::string failure_reason;
  std::optional<ApiError> last_api_error;
  std::string last_reasoning;
  std::optional<Json> output;  // The structured answer (AgentOptions::output).
  int output_repairs = 0;      // Answers sent back for not matching the schema.

  // Usage of this turn.
  Usage usage;
  int64_t last_prompt_tokens = 0;

  // Recovery counters, reset every turn.
  int empty_retries = 0;
  int thinking_prefill_retries = 0;
  bool post_tool_nudged = false;
  // Text the model wrote beside tool calls this turn, and whether all those calls were
  // housekeeping (memory, todo, ...): then the text was the answer if the model falls silent.
  std::string last_content_with_tools;
  bool last_content_tools_all_housekeeping = false;
  int dropped_tool_call_prompts = 0;
  int intent_ack_nudges = 0;
  int invalid_tool_rounds = 0;
  int invalid_json_retries = 0;
  int truncated_tool_call_retries = 0;
  bool reasoning_refusal_retried = false;       // A refused reasoning setting is retried once.
  std::vector<std::string> continuation_parts;  // Text of length-truncated answers.
  std::optional<int64_t> next_max_tokens;       // A boosted cap for the next call only.
  std::string streamed_text;                    // Visible text streamed by the current call.

  int compression_attempts = 0;  // Compactions this turn (at most 3).
  double idle_seconds = 0;       // Since the last stored message, at turn start.

  bool memory_review_due = false;  // This turn earned a memory review.

  std::set<std::string> executed_call_ids;
  std::vector<ToolOutcome> previous_tools;
};

}  // namespace hermes::internal
