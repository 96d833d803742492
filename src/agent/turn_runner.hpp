// One turn of the conversation loop, as a short sequence of named phases:
//
//   prologue();  steps until one ends with StepEnd::kTurnOver;  finalize();
//
// Each phase lives in the file named after it: turn_prologue.cpp, request_assembly.cpp,
// model_call.cpp, tool_round.cpp, final_response.cpp, turn_finalizer.cpp.
#pragma once

#include <optional>
#include <string>

#include "agent/agent_core.hpp"
#include "agent/recovery_decision.hpp"
#include "agent/turn_state.hpp"
#include "agent/turn_trace.hpp"
#include "agent/wire_transcript.hpp"

namespace hermes::internal {

// What follows a model call, as the call decides it.
enum class AfterCall {
  kAnswered,   // The response is there.
  kStepAgain,  // The transcript was compacted to fit: the step runs again, uncounted.
  kStop,       // The turn ends (the reason is recorded in the state).
};

struct ModelCall {
  AfterCall next = AfterCall::kStop;
  std::optional<ProviderResponse> response;  // With kAnswered.
};

// What follows a step, as the phase that ended it decides. The loop alone acts on it: it
// runs the next step, or runs this one again after giving back its iteration, or stops.
enum class StepEnd {
  kNext,      // The next step (it takes an iteration).
  kRepeat,    // This step again, uncounted: it made no model call that counts (a compaction
              // in its place, a switch of provider).
  kTurnOver,  // The turn ends; the state records why.
};

// What follows a failed attempt, as its recovery decides it.
enum class AfterFailure { kRetryCall, kStepAgain, kStop };

struct TurnInput {
  std::string user_message;
  std::optional<std::string> system_message;
  // The caller's history, which replaces the agent's; null keeps the agent's. It outlives
  // the turn (it is the caller's argument).
  const std::vector<Message>* history = nullptr;
  std::string task_id;
  std::optional<AgentOptions::Output> output;  // The turn's own answer schema.
  // Set instead of `history` when the turn may take the list (an asynchronous turn owns
  // its options): it is moved, not copied.
  std::vector<Message>* history_to_move = nullptr;
};

class TurnRunner {
 public:
  TurnRunner(AgentCore& core, TurnInput input);

  ConversationResult run();

 private:
  // turn_prologue.cpp
  void prologue();
  void prepare_system_prompt(bool allow_stored = true);
  double conversation_started_at() const;
  bool offered(std::string_view tool) const;
  // The per-turn context for the API copy of the user message: plugin context and what
  // the memory provider recalls. Empty when there is none.
  std::string turn_context();

  // turn_compaction.cpp: the compaction triggers of a turn.
  void preflight_compaction();
  // The opt-in idle trigger: after a long pause the provider's prompt cache is cold
  // anyway, so a compaction costs nothing extra.
  void idle_compaction();
  // `estimate`: wire_estimate() of the request about to be made.
  bool pre_api_compaction(int64_t estimate);
  void post_tool_compaction();
  bool compact(const std::string& reason, std::optional<int64_t> current_tokens);
  // The rough size of `request` (its messages and tools), counted from scratch.
  int64_t request_estimate(const ProviderRequest& request) const;

  // turn_runner.cpp: the steps until the turn is over; an exception out of a step fails
  // the turn (fail_internally) instead of skipping its end.
  void run_steps();
  void fail_internally(const std::string& what);
  // One outer iteration: the model call, then the tool round or the answer.
  StepEnd step();

  // request_assembly.cpp: the wire copy of the transcript.
  std::string wire_system_prompt() const;
  Json offered_tool_definitions() const;
  // The rough size of the next request (messages and offered tools).
  int64_t wire_estimate();
  // The request for the transcript as it stands, its messages lent by wire_ under `lease`.
  // `wire_current`: wire_ was updated and nothing has changed the transcript since.
  ProviderRequest assemble_request(bool with_tools, uint64_t& lease, bool wire_current = false);
  // One model call (call_model) on the transcript as it stands.
  ModelCall call_model_on_transcript(bool with_tools, std::optional<int64_t> max_tokens = {},
                                     bool wire_current = false);

  // model_call.cpp: one model call with retries and recoveries.
  ModelCall call_model(ProviderRequest& request);
  StreamCallback stream_forwarder();
  void record_usage(const ProviderResponse& response);
  // A sub-agent's spending counts as this turn's (and this session's).
  void record_subagent_usage(const Usage& usage, int api_calls, const std::string& model);
  // Carries out the recovery decide_recovery chose (recovery_decision.hpp), and what
  // replaces it when an attempt is declined; `action` ends as the one taken.
  AfterFailure perform_recovery(RecoveryAction& action, const ApiError& error, RecoveryFacts& facts,
                                ProviderRequest& request);
  // Waits before retry `retry`; false when an interrupt lands during the wait.
  bool back_off(const ApiError& error, int retry, int max_attempts);
  // True when the transcript was compacted (the step runs again); else the turn failed.
  bool recover_by_compaction(const ApiError& error, const ProviderRequest& request);
  bool refresh_credential(const ApiError& error);
  // Changes what the provider refused in `request` (corrupt images, a reasoning setting)
  // so the call can be retried at once. False when there is nothing to change.
  bool repair_refused_request(const ApiError& error, ProviderRequest& request);
  bool repair_reasoning_refusal(const ApiError& error, ProviderRequest& request);
  // Switches to the next fallback provider and tells the context engine its window.
  bool switch_to_fallback(const ApiError& error);

  // tool_round.cpp: the model asked for tools.
  StepEnd run_tool_round(Message assistant);
  void deliver_steer_after_tools();
  void note_tool_result(const ToolCall& call, const std::string& result);
  // The registry's spec for `call`, or an agent-bound one for tools the agent runs itself.
  std::shared_ptr<const ToolSpec> spec_for(const ToolCall& call);

  // final_response.cpp: the model answered in text.
  StepEnd accept_text_response(ProviderResponse& response);
  bool accept_structured_text(const std::string& answer);
  StepEnd accept_output_call(Message assistant, const ToolCall& call);
  // An answer with no visible text: ask again (uncounted after a switch of provider),
  // deliver what streamed (into `visible`), or give up with the "(empty)" sentinel.
  enum class EmptyAnswer { kRetry, kRetryUncounted, kDeliver, kGiveUp };
  EmptyAnswer recover_empty_answer(const Message& msg, std::string& visible);
  // A reply that only announces the work: ask for the work. True when the turn goes on.
  bool nudge_intent_ack(const Message& msg, const std::string& visible);

  // turn_finalizer.cpp
  void summarize_after_budget();
  void finalize();
  ConversationResult build_result();
  void remove_scaffolding();
  // After the result: the memory provider's sync and the background review.
  void after_turn(const ConversationResult& result);

  // Helpers.
  void append(Message message);
  void flush();
  void fail(std::string error, std::string exit_reason);
  void status(std::string_view kind, std::string_view message) const;

  // The answer schema of this turn: its own, else the agent's.
  const AgentOptions::Output& turn_output() const {
    return input_.output ? *input_.output : core_.options.output;
  }

  AgentCore& core_;
  TurnInput input_;
  TurnState st_;
  TurnTrace trace_;
  WireTranscript wire_;
};

}  // namespace hermes::internal
