// delegate_task: the schema of the sub-agent tool. Running a sub-agent needs the agent
// that calls it (its provider, model and tools), so the Agent binds the handler when the
// call arrives; the handler registered here only answers callers outside an agent.
#include "tools/builtin_toolsets.hpp"

namespace hermes::internal {
namespace {

constexpr const char* kDelegateDescription =
    "Hand one or more self-contained tasks to sub-agents that work in a fresh context and "
    "return only a short summary of what they did and found. Each sub-agent starts with no "
    "knowledge of this conversation: the goal and context you give it are all it knows, so "
    "state file paths, constraints and what a good result looks like. Use `goal` (and "
    "`context`) for one task, or `tasks` for several independent tasks that run at the same "
    "time. Sub-agents cannot ask the user questions, save memories or delegate further. "
    "Use this for work whose intermediate steps would flood your context (broad searches, "
    "reading many files, long investigations); do small things yourself.";

Json task_properties() {
  return Json{
      {"goal", {{"type", "string"}, {"description", "What the sub-agent must accomplish."}}},
      {"context",
       {{"type", "string"},
        {"description", "Background the sub-agent needs: paths, constraints, findings so far."}}}};
}

Json delegate_parameters() {
  Json props = task_properties();
  props["tasks"] = {
      {"type", "array"},
      {"description", "Several independent tasks run in parallel (instead of goal/context)."},
      {"items", {{"type", "object"}, {"properties", task_properties()}, {"required", {"goal"}}}}};
  props["toolsets"] = {
      {"type", "array"},
      {"items", {{"type", "string"}}},
      {"description",
       "Toolsets the sub-agents may use (default: yours). Never more than you have."}};
  return Json{{"type", "object"}, {"properties", std::move(props)}};
}

}  // namespace

std::vector<ToolSpec> delegation_tools() {
  ToolSpec spec;
  spec.name = "delegate_task";
  spec.toolset = "delegation";
  spec.description = kDelegateDescription;
  spec.parameters = delegate_parameters();
  spec.handler = [](const Json&, ToolContext&) -> Result<std::string> {
    return Status::failed_precondition("delegate_task runs only inside an agent's tool loop");
  };
  // Its sub-agents already run side by side; two calls at once would double that.
  spec.parallel_safe = false;
  // Bounded by its children's iteration budgets, each model call by its own timeouts; an
  // interrupt reaches the children. A deadline would throw away work still under way.
  spec.call_timeout = std::chrono::milliseconds(0);
  return {std::move(spec)};
}

}  // namespace hermes::internal
