// Reading delegate_task's arguments. Every mistake is answered with a sentence that tells
// the model how to call the tool correctly.
#include <string>

#include "agent/delegation.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

std::string text_of(const Json& value) {
  if (value.is_string()) return strip(value.get<std::string>());
  return value.is_null() ? "" : dump_json(value);
}

std::string field(const Json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? "" : text_of(*it);
}

Result<std::vector<DelegateTask>> parse_tasks(Json tasks, int max_tasks) {
  // Some models send the list as JSON text.
  if (tasks.is_string()) {
    auto parsed = parse_json(tasks.get<std::string>());
    if (!parsed) {
      return Status::invalid_argument(
          "tasks must be a list of {goal, context} objects; the text given is not valid JSON");
    }
    tasks = std::move(*parsed);
  }
  if (!tasks.is_array()) {
    return Status::invalid_argument("tasks must be a list of {goal, context} objects");
  }
  if (tasks.empty()) {
    return Status::invalid_argument("tasks is empty: give at least one {goal, context} task");
  }
  if (tasks.size() > static_cast<std::size_t>(max_tasks)) {
    return Status::invalid_argument("too many tasks: " + std::to_string(tasks.size()) +
                                    " given, but at most " + std::to_string(max_tasks) +
                                    " sub-agents run at once; split them into batches of " +
                                    std::to_string(max_tasks) + " or fewer");
  }
  std::vector<DelegateTask> out;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Json& task = tasks[i];
    if (!task.is_object()) {
      return Status::invalid_argument("tasks[" + std::to_string(i) +
                                      "] must be an object: {\"goal\": \"...\", "
                                      "\"context\": \"...\"}");
    }
    DelegateTask t{field(task, "goal"), field(task, "context")};
    if (t.goal.empty()) {
      return Status::invalid_argument("tasks[" + std::to_string(i) +
                                      "] needs a non-empty goal: {\"goal\": \"...\", "
                                      "\"context\": \"...\"}");
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::string> parse_toolsets(const Json& arguments) {
  std::vector<std::string> out;
  auto it = arguments.find("toolsets");
  if (it == arguments.end()) return out;
  if (it->is_string() && !is_blank(it->get<std::string>()))
    out.push_back(strip(it->get<std::string>()));
  if (it->is_array()) {
    for (const Json& name : *it) {
      if (name.is_string() && !is_blank(name.get<std::string>()))
        out.push_back(strip(name.get<std::string>()));
    }
  }
  return out;
}

}  // namespace

Result<DelegationRequest> parse_delegation_request(const Json& arguments, int max_tasks) {
  if (!arguments.is_object()) {
    return Status::invalid_argument("arguments must be an object with goal or tasks");
  }
  DelegationRequest request;
  request.toolsets = parse_toolsets(arguments);
  if (auto it = arguments.find("tasks"); it != arguments.end() && !it->is_null()) {
    auto tasks = parse_tasks(*it, max_tasks);
    if (!tasks.ok()) return tasks.status();
    request.tasks = std::move(*tasks);
    return request;
  }
  DelegateTask task{field(arguments, "goal"), field(arguments, "context")};
  if (task.goal.empty()) {
    return Status::invalid_argument(
        "provide a goal (and optional context) for one sub-agent, or tasks: [{goal, "
        "context}, ...] for several");
  }
  request.tasks.push_back(std::move(task));
  return request;
}

}  // namespace hermes::internal
