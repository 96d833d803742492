// The outer loop of a turn: one model call per iteration, then a tool round or the end.
#include "agent/turn_runner.hpp"

#include <exception>
#include <string>
#include <utility>

#include "agent/safe_callback.hpp"
#include "agent/steer.hpp"
#include "safety/log.hpp"

namespace hermes::internal {

TurnRunner::TurnRunner(AgentCore& core, TurnInput input)
    : core_(core), input_(std::move(input)), st_(core.options.max_iterations) {}

ConversationResult TurnRunner::run() {
  trace_.begin(core_.options.tracing, input_.user_message);
  ConversationResult result;
  {
    SpanScope turn_scope(trace_.parent());
    prologue();
    trace_.identify(core_.session_id, st_.turn_id, core_.runtime->provider().info(),
                    core_.runtime->model());
    run_steps();
    finalize();
    result = build_result();
  }
  trace_.end(result);
  after_turn(result);
  return result;
}

void TurnRunner::run_steps() {
  // A step that throws (a thread that cannot be started, memory exhausted) ends the turn
  // as failed, and the turn still finishes: the messages it accepted, which the store may
  // already hold, stay in the agent's transcript.
  try {
    for (StepEnd end = step(); end != StepEnd::kTurnOver; end = step()) {
      if (end == StepEnd::kRepeat) st_.budget.refund();
    }
  } catch (const std::exception& e) {
    fail_internally(e.what());
  } catch (...) {
    fail_internally("unknown exception");
  }
}

void TurnRunner::fail_internally(const std::string& what) {
  HERMES_LOG_ERROR("turn {}: a step failed: {}", st_.turn_id, what);
  st_.failed = true;
  st_.exit_reason = "internal_error";
  st_.error = "the turn failed: " + what;
}

StepEnd TurnRunner::step() {
  if (core_.control.interrupted()) {
    st_.interrupted = true;
    st_.exit_reason = "interrupted_by_user";
    return StepEnd::kTurnOver;
  }
  if (!st_.budget.consume()) {
    st_.budget_exhausted = true;
    st_.exit_reason = "budget_exhausted";
    return StepEnd::kTurnOver;
  }
  // A step after a refunded one has its number again, as upstream's step callback.
  const int step_number = st_.budget.used();
  StepSpan step_span(trace_.parent(), step_number);
  safe_callback("step", core_.options.callbacks.on_step, step_number, st_.previous_tools);
  st_.previous_tools.clear();

  // Guidance that arrived while the model was thinking is delivered before the next call.
  if (std::string steer = core_.control.take_steer(); !steer.empty()) {
    append(steer_message(steer));
  }

  // A compaction is not a model call: the step is run again.
  if (pre_api_compaction(wire_estimate())) return StepEnd::kRepeat;
  // The wire copy is the one just estimated: nothing changed the transcript since.
  // A retry of a truncated response gets more room, for that one call.
  ModelCall call = call_model_on_transcript(/*with_tools=*/true,
                                            std::exchange(st_.next_max_tokens, std::nullopt),
                                            /*wire_current=*/true);
  switch (call.next) {
    case AfterCall::kStop:
      return StepEnd::kTurnOver;
    case AfterCall::kStepAgain:
      // The call hit the context limit and the transcript was compacted: run the step
      // again, without charging it twice.
      return StepEnd::kRepeat;
    case AfterCall::kAnswered:
      break;
  }
  auto& response = call.response;
  record_usage(*response);
  if (!response->message.reasoning.empty()) st_.last_reasoning = response->message.reasoning;

  if (!response->message.tool_calls.empty()) {
    return run_tool_round(std::move(response->message));
  }
  return accept_text_response(*response);
}

void TurnRunner::append(Message message) {
  if (message.timestamp == 0) {
    using namespace std::chrono;
    message.timestamp = duration<double>(system_clock::now().time_since_epoch()).count();
  }
  st_.messages.push_back(std::move(message));
}

void TurnRunner::flush() {
  (void)core_.flush(st_.messages);
}

void TurnRunner::fail(std::string error, std::string exit_reason) {
  st_.failed = true;
  st_.error = std::move(error);
  st_.exit_reason = std::move(exit_reason);
}

void TurnRunner::status(std::string_view kind, std::string_view message) const {
  safe_callback("status", core_.options.callbacks.on_status, kind, message);
}

}  // namespace hermes::internal
