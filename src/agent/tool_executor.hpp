// Running one batch of tool calls: a planner groups calls that may run at the same time,
// a bounded set of workers runs each group, and results are delivered in call order.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/hook_runner.hpp"
#include "agent/turn_trace.hpp"
#include "hermes/callbacks.hpp"
#include "hermes/message.hpp"
#include "hermes/tool.hpp"

namespace hermes::internal {

// One call of the batch, validated by the tool round.
struct ToolInvocation {
  ToolCall call;
  std::shared_ptr<const ToolSpec> spec;      // nullptr when the result is already decided.
  Json arguments;                            // Parsed arguments.
  std::optional<std::string> preset_result;  // An error decided before execution.
};

struct ToolRunResult {
  std::string content;
  bool is_error = false;
  std::chrono::milliseconds duration{0};
};

// Groups `calls` into consecutive segments whose calls may run at the same time:
// interactive and non-parallel tools run alone, unless path-scoped with a path no other
// call of the segment touches. Returned as lists of indices, in order.
std::vector<std::vector<std::size_t>> plan_tool_segments(const std::vector<ToolInvocation>& calls);

// Runs one tool: the handler's result, or an error result for a failure or an exception.
ToolRunResult invoke_tool(const ToolSpec& spec, const Json& arguments, ToolContext& context);

class ToolWorkers;

struct ToolBatchEnv {
  ToolContext context;  // Copied per call; tool_call_id and tool_name are filled in.
  int max_workers = 8;
  const Callbacks* callbacks = nullptr;
  const HookRunner* hooks = nullptr;
  // Deadlines (0: none): a group of calls run in parallel as a whole, and a call run on
  // its own; a tool's own ToolSpec::call_timeout replaces the second and may lengthen
  // the first. A call still running at its deadline is told to stop through its cancel
  // token and answered with the timeout text; the batch goes on without it.
  std::chrono::milliseconds group_timeout{0};
  std::chrono::milliseconds call_timeout{0};
  // Counts the workers of calls with a deadline, which may outlive the batch; required
  // when a deadline is set (the agent waits for them before it goes away).
  std::shared_ptr<ToolWorkers> workers;
  SpanParent trace;  // Where the calls' spans hang (the step's span), when tracing.
};

// One call in three phases, so a call with a deadline can be finished by whichever of its
// worker and the waiting batch comes first. begin_call reports the start and runs the
// pre_tool_call hook; execute_call runs the handler (or takes the hook's veto);
// finish_call runs the result hooks and reports the end.
struct ToolCallStart {
  ToolContext context;
  ToolProgress progress;
  std::optional<std::string> blocked;  // The hook's veto message.
  std::chrono::steady_clock::time_point t0;
  std::shared_ptr<ToolSpan> span;  // Null when not tracing.
};
ToolCallStart begin_call(ToolInvocation& inv, const ToolBatchEnv& env);
ToolRunResult execute_call(const ToolInvocation& inv, ToolCallStart& start);
ToolRunResult finish_call(const ToolInvocation& inv, const ToolCallStart& start,
                          ToolRunResult result, const ToolBatchEnv& env);

// The answer of a call that is not run: its preset error, or the cancellation text when
// the turn was interrupted before it started. A preset error is still a tool call the
// model made, so it gets its span.
ToolRunResult unrun_call(const ToolInvocation& inv, const ToolBatchEnv& env);

// "Error executing tool '{name}': timed out after {seconds:.1f}s"
std::string timed_out_tool_text(const std::string& name, std::chrono::milliseconds after);

// Runs the batch. `deliver(i, result)` is called on the calling thread, in call order,
// as soon as call i and every call before it have finished. Calls that have not started
// when `env.context.cancel` is set are not run; they get the cancellation text.
void run_tool_batch(std::vector<ToolInvocation>& calls, const ToolBatchEnv& env,
                    const std::function<void(std::size_t, ToolRunResult)>& deliver);

// "[Tool execution cancelled — {name} was skipped due to user interrupt]"
std::string cancelled_tool_text(const std::string& name);

}  // namespace hermes::internal
