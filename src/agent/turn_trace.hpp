// The spans of a turn: the turn itself ("invoke_agent hermes"), its steps and its tool
// calls, per the OpenTelemetry GenAI semantic conventions. Model call attempts are
// common/genai_spans.hpp's. With no sink configured all of it is inactive.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string_view>

#include "common/tracer.hpp"
#include "hermes/agent.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

class TurnTrace {
 public:
  // Starts the turn's span: a child of TracingOptions::traceparent, or a new trace.
  void begin(const TracingOptions& options, std::string_view user_message);
  // What the prologue decided: the session, the turn id, the model.
  void identify(std::string_view session_id, std::string_view turn_id, const ProviderInfo& provider,
                std::string_view model);
  // Ends the turn's span with the result's outcome and usage.
  void end(const ConversationResult& result);
  SpanParent parent() const { return turn_.as_parent(); }

 private:
  ActiveSpan turn_;
};

// One step of the loop ("hermes.step"): the current span of the turn's thread while it
// lives, so that model calls, tool calls, compactions and store writes hang under it.
// Records hermes.step.duration when it ends.
class StepSpan {
 public:
  StepSpan(const SpanParent& turn, int number);
  ~StepSpan();
  StepSpan(const StepSpan&) = delete;
  StepSpan& operator=(const StepSpan&) = delete;

 private:
  ActiveSpan span_;
  SpanScope scope_;
  std::chrono::steady_clock::time_point started_;
};

// A tool call's span ("execute_tool <name>"). Shared by the call's worker and the batch
// that may answer it at its deadline; whichever finishes it first ends it.
class ToolSpan {
 public:
  ToolSpan(const SpanParent& parent, const ToolCall& call, const Json& arguments);
  SpanParent parent() const { return span_.as_parent(); }
  void finish(std::string_view result, bool is_error, std::string_view error_type);

 private:
  ActiveSpan span_;
  std::string tool_name_;
  std::atomic<bool> finished_{false};
};

}  // namespace hermes::internal
