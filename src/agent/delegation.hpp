// delegate_task: the calling agent hands self-contained tasks to
// sub-agents that start from a fresh context, run side by side with a restricted toolset
// and their own iteration budget, and return only a summary each.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hermes/agent.hpp"

namespace hermes::internal {

struct AgentCore;

struct DelegateTask {
  std::string goal;
  std::string context;
};

struct DelegationRequest {
  std::vector<DelegateTask> tasks;
  std::vector<std::string> toolsets;  // Empty: the caller's own.
};

// The request in delegate_task's arguments: `goal` (+ `context`), or `tasks` (a list, or
// JSON text of one), at most `max_tasks` of them. InvalidArgument says what is wrong in
// words the model can act on.
Result<DelegationRequest> parse_delegation_request(const Json& arguments, int max_tasks);

// Tools a sub-agent never gets: it cannot delegate further (depth 1), ask the user, or
// write the caller's memory.
bool blocked_for_subagent(const std::string& tool);

// The registry of the sub-agents: the tools the caller was offered (`parent_tools`),
// narrowed to `requested` toolsets when any are named, minus the blocked ones.
std::shared_ptr<ToolRegistry> subagent_registry(const ToolRegistry& parent,
                                                const std::vector<std::string>& parent_tools,
                                                const std::vector<std::string>& requested);

// The sub-agent's system prompt: who it is, YOUR TASK, CONTEXT, and the summary it owes.
std::string subagent_prompt(const DelegateTask& task);

// The options of a sub-agent: the caller's provider instance, model and credentials; the
// tools of `registry`; quiet (no host callbacks, so dangerous commands are denied),
// unpersisted, without background review or memory provider.
AgentOptions subagent_options(const AgentCore& core, std::shared_ptr<ToolRegistry> registry,
                              const DelegateTask& task);

// What one sub-agent returned, as the caller sees it.
struct SubagentOutcome {
  std::string status = "interrupted";  // completed | failed | interrupted | error
  std::string summary;
  int api_calls = 0;
  double duration_seconds = 0;
  std::string model;
  std::string exit_reason = "interrupted";  // completed | max_iterations | interrupted | error
  Usage usage;
  Json tool_trace = Json::array();
  std::string error;
};

// The outcome of a finished sub-agent turn.
SubagentOutcome outcome_of(const ConversationResult& result, std::chrono::duration<double> took);

// The tool result of delegate_task: every outcome in task order, plus the total time.
std::string delegation_result_json(const std::vector<SubagentOutcome>& outcomes,
                                   std::chrono::duration<double> took);

// What delegate_task needs from the calling turn.
struct DelegationHost {
  AgentCore* core = nullptr;
  std::vector<std::string> offered_tools;                     // The caller's tools this turn.
  std::function<void(const SubagentOutcome&)> on_child_done;  // On the calling thread.
  std::chrono::milliseconds stop_grace{2000};                 // After an interrupt, wait this long.
};

// The registry's delegate_task spec with a handler that runs sub-agents for `host`.
std::shared_ptr<const ToolSpec> bind_delegate_task(const ToolSpec& registered, DelegationHost host);

}  // namespace hermes::internal
