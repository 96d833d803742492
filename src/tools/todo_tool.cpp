// todo_list: the session's task list, read with no arguments and written with `todos`.
#include "common/json_text.hpp"
#include "hermes/todo.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/todo_store.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr const char* kStoreKey = "todo.store";

constexpr const char* kTodoDescription =
    "Keep a task list for work with three or more steps, or when the user gives several tasks. "
    "For 'all N items' requests, list every item on its own so none is dropped. Call with no "
    "arguments to read the list. Order is priority; keep exactly one item in_progress. Nest "
    "subtasks with parent. Mark an item completed only once the work is verified, never on "
    "intent; if something fails, cancel it and add what replaces it. Every call returns the "
    "whole list.";

Json todo_schema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "todos": {
        "type": "array",
        "description": "The items to write. Omit to read the current list.",
        "items": {
          "type": "object",
          "properties": {
            "id": {"type": "string", "description": "A short unique id of the item."},
            "content": {"type": "string", "description": "What to do."},
            "status": {"type": "string", "enum": ["pending", "in_progress", "completed", "cancelled"]},
            "parent": {"type": "string", "description": "The id of the parent item, for a subtask."}
          },
          "required": ["id", "content", "status"]
        }
      },
      "merge": {
        "type": "boolean",
        "description": "true: update items by id and append new ones. false (default): replace the list."
      }
    }
  })");
  return kSchema;
}

Result<std::string> run_todo(const Json& args, ToolContext& ctx) {
  if (ctx.state == nullptr) return Status::failed_precondition("TodoStore not initialized");
  auto store = ctx.state->get_or_create<TodoStore>(kStoreKey);
  auto merge = arg_bool(args, "merge", false);
  if (!merge.ok()) return merge.status();
  const Json* todos = args.is_object() && args.contains("todos") && !args["todos"].is_null()
                          ? &args["todos"]
                          : nullptr;
  if (todos == nullptr) return dump_json(todo_result_json(store->read(), store->revision()));
  Json parsed;
  if (todos->is_string()) {  // Models sometimes send the list as JSON text.
    auto value = parse_json(todos->get<std::string>());
    if (!value)
      return Status::invalid_argument("todos must be a list of objects, got unparseable string");
    parsed = std::move(*value);
    todos = &parsed;
  }
  if (!todos->is_array())
    return Status::invalid_argument("todos must be a list, got " + json_type_name(*todos));
  std::vector<TodoItem> items = store->write(*todos, *merge);
  return dump_json(todo_result_json(items, store->revision()));
}

}  // namespace

std::vector<ToolSpec> todo_tools() {
  ToolSpec spec;
  spec.name = "todo_list";
  spec.toolset = "todo";
  spec.description = kTodoDescription;
  spec.parameters = todo_schema();
  spec.handler = run_todo;
  spec.parallel_safe = false;  // Writes must apply in call order.
  return {std::move(spec)};
}

}  // namespace hermes::internal

namespace hermes {

std::optional<std::string> render_todo_snapshot(ToolSessionState& state) {
  return state.get_or_create<internal::TodoStore>(internal::kStoreKey)->format_for_injection();
}

}  // namespace hermes
