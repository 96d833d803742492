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
#include "hermes/tool.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// One call of the batch, validated by the tool round.
struct ToolInvocation {
  ToolCall call;
  std::shared_ptr<const ToolSpec> spec;     // nullptr when the result is already decided.
  Json arguments;                           // Parsed arguments.
  std::optional<std::string> preset_result; // An error decided before execution.
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

struct ToolBatchEnv {
  ToolContext context;   // Copied per call; tool_call_id and tool_name are filled in.
  int max_workers = 8;
  const Callbacks* callbacks = nullptr;
  const HookRunner* hooks = nullptr;
};

// Runs the batch. `deliver(i, result)` is called on the calling thread, in call order,
// as soon as call i and every call before it have finished. Calls that have not started
// when `env.context.cancel` is set are not run; they get the cancellation text.
void run_tool_batch(std::vector<ToolInvocation>& calls, const ToolBatchEnv& env,
                    const std::function<void(std::size_t, ToolRunResult)>& deliver);

// "[Tool execution cancelled — {name} was skipped due to user interrupt]"
std::string cancelled_tool_text(const std::string& name);

}  // namespace hermes::internal
