// One sub-agent of delegate_task: its tools, prompt and options, and how its finished
// turn is reported back to the agent that delegated.
#include <algorithm>
#include <set>

#include "agent/agent_core.hpp"
#include "agent/child_agent_options.hpp"
#include "agent/delegation.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

// Tools that act for the user or on shared state outside the sub-agent's task.
const std::set<std::string> kBlockedTools = {"delegate_task", "clarify",      "memory",
                                             "send_message",  "execute_code", "cronjob",
                                             "cronjob_manage"};

std::string exit_reason_of(const ConversationResult& r) {
  if (r.interrupted) return "interrupted";
  if (r.exit_reason.starts_with("max_iterations")) return "max_iterations";
  if (r.failed) return "error";
  return "completed";
}

// Tool results that report a failure: an {"error": ...} object, or the loop's own
// refusals ("Error: ...", "Tool 'x' does not exist", a cancelled or skipped call).
bool is_error_result(const std::string& content) {
  const std::string head = strip(std::string_view(content).substr(0, 64));
  for (const char* prefix :
       {"Error", "Tool '", "Tool call rejected", "Skipped:", "[Tool execution cancelled"}) {
    if (head.starts_with(prefix)) return true;
  }
  if (head.empty() || head.front() != '{') return false;
  auto parsed = parse_json(content);
  if (!parsed || !parsed->is_object()) return false;
  auto it = parsed->find("error");
  return it != parsed->end() && !it->is_null() && !(it->is_boolean() && !it->get<bool>());
}

// {tool, args_bytes, result_bytes, status} for every tool call the sub-agent made.
Json tool_trace_of(const std::vector<Message>& messages) {
  Json trace = Json::array();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    for (const ToolCall& call : messages[i].tool_calls) {
      Json entry{{"tool", call.name}, {"args_bytes", call.arguments.size()}};
      for (std::size_t j = i + 1; j < messages.size(); ++j) {
        const Message& m = messages[j];
        if (m.role != Role::kTool || m.tool_call_id != call.id) continue;
        entry["result_bytes"] = m.content.size();
        entry["status"] = is_error_result(m.content) ? "error" : "ok";
        break;
      }
      if (!entry.contains("status")) entry["status"] = "error";  // Never answered.
      trace.push_back(std::move(entry));
    }
  }
  return trace;
}

}  // namespace

bool blocked_for_subagent(const std::string& tool) {
  return kBlockedTools.count(tool) != 0;
}

std::shared_ptr<ToolRegistry> subagent_registry(const ToolRegistry& parent,
                                                const std::vector<std::string>& parent_tools,
                                                const std::vector<std::string>& requested) {
  // resolve() reads an empty list as "everything": only a named toolset narrows.
  const std::vector<std::string> wanted =
      requested.empty() ? parent_tools : parent.resolve(requested, {});
  auto registry = std::make_shared<ToolRegistry>();
  for (const std::string& name : parent_tools) {
    if (blocked_for_subagent(name) || !list_contains(wanted, name)) continue;
    auto spec = parent.find(name);
    if (!spec) continue;  // Unregistered since the turn began.
    if (Status s = registry->register_tool(*spec); !s.ok()) {
      HERMES_LOG_WARN("sub-agent cannot use {}: {}", name, s.to_string());
    }
  }
  return registry;
}

std::string subagent_prompt(const DelegateTask& task) {
  std::string prompt =
      "You are a focused subagent working on one delegated task. You have no access to the "
      "conversation that led to it: everything you know about the task is below.\n\n"
      "YOUR TASK:\n" +
      task.goal + "\n";
  if (!task.context.empty()) prompt += "\nCONTEXT:\n" + task.context + "\n";
  prompt +=
      "\nWork on the task with the tools you have. You cannot ask the user anything; decide "
      "for yourself and note any assumption. When you are done, reply with a concise final "
      "summary: what you did, what you found, which files you created or modified, and any "
      "problem left open. That summary is the only thing the requester will see.";
  return prompt;
}

AgentOptions subagent_options(const AgentCore& core, std::shared_ptr<ToolRegistry> registry,
                              const DelegateTask& task) {
  AgentOptions o = child_agent_options(core);
  o.max_iterations = core.options.delegation.max_iterations;
  o.tool_use.max_workers = core.options.tool_use.max_workers;
  o.ephemeral_system_prompt = subagent_prompt(task);
  o.compression = core.options.compression;

  // Exactly the tools of `registry`: naming their toolsets keeps the opt-in ones (file,
  // terminal) that the caller had.
  std::set<std::string> toolsets;
  for (const std::string& name : registry->names()) toolsets.insert(registry->find(name)->toolset);
  o.tool_use.enabled_toolsets.assign(toolsets.begin(), toolsets.end());
  o.tools = std::move(registry);
  o.source = "subagent";
  return o;
}

SubagentOutcome outcome_of(const ConversationResult& r, std::chrono::duration<double> took) {
  SubagentOutcome out;
  out.summary = strip(r.final_response.value_or(""));
  out.api_calls = r.api_calls;
  out.duration_seconds = took.count();
  out.model = r.model;
  out.usage = r.usage;
  out.exit_reason = exit_reason_of(r);
  out.tool_trace = tool_trace_of(r.messages);
  // A summary is what the caller needs, even from a sub-agent that ran out of budget
  // (exit_reason says so); an interrupted one only ever has a partial answer.
  if (r.interrupted) {
    out.status = "interrupted";
    out.error = "interrupted before it finished";
  } else if (!out.summary.empty()) {
    out.status = "completed";
  } else {
    out.status = "failed";
    out.error = !r.error.empty() ? r.error : "the sub-agent ended without a summary";
  }
  return out;
}

}  // namespace hermes::internal
