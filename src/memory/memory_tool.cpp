// memory: add, replace or remove entries of MEMORY.md / USER.md, one at a time or as an
// all-or-nothing batch.
#include <mutex>

#include "common/json_text.hpp"
#include "memory/memory_store.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxConsolidationFailures = 3;

constexpr const char* kMemoryDescription =
    "Save durable information to persistent memory that survives across sessions; it is shown at "
    "the start of every future session. target 'memory' is your notes (environment facts, project "
    "conventions, tool quirks, lessons); target 'user' is the user profile (preferences, "
    "communication style, habits). Save proactively when you learn something durable; not task "
    "progress or temporary state. add: new entry. replace: old_text (a short unique substring of "
    "the entry) and content. remove: old_text. Or operations: [{action, content?, old_text?}] to "
    "apply several changes to one target at once, checked against the budget only at the end. "
    "Each file has a character budget; when full, consolidate (replace or remove) before adding.";

// Failed consolidation attempts in a row. Past the cap the error becomes terminal, so a
// fragile replace cannot loop until the iteration budget is spent.
struct ConsolidationFailures {
  std::mutex mu;
  int count = 0;
};

Json memory_schema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "action": {"type": "string", "enum": ["add", "replace", "remove"]},
      "target": {"type": "string", "enum": ["memory", "user"], "description": "Which file; default memory."},
      "content": {"type": "string", "description": "The entry text (add, replace)."},
      "old_text": {"type": "string", "description": "A short unique substring of the entry to replace or remove."},
      "operations": {
        "type": "array",
        "description": "Several changes to one target, applied together or not at all.",
        "items": {
          "type": "object",
          "properties": {
            "action": {"type": "string", "enum": ["add", "replace", "remove"]},
            "content": {"type": "string"},
            "old_text": {"type": "string"}
          },
          "required": ["action"]
        }
      }
    }
  })");
  return kSchema;
}

Json dispatch(MemoryStore& store, MemoryTarget target, const Json& args) {
  if (args.contains("operations") && !args["operations"].is_null() &&
      !(args["operations"].is_array() && args["operations"].empty())) {
    if (!args["operations"].is_array()) {
      return tool_failure("operations must be a list of {action, content?, old_text?} objects.");
    }
    return store.apply_batch(target, args["operations"]);
  }
  auto text = [&](const char* key) -> std::string {
    return args.contains(key) && args[key].is_string() ? args[key].get<std::string>() : "";
  };
  const std::string action = text("action");
  const std::string content = text("content");
  const std::string old_text = text("old_text");
  if (action == "add") {
    if (content.empty()) return tool_failure("Content is required for 'add' action.");
    return store.add(target, content);
  }
  if (action == "replace") {
    if (old_text.empty()) return store.missing_old_text(target, "replace");
    if (content.empty()) return tool_failure("content is required for 'replace' action.");
    return store.replace(target, old_text, content);
  }
  if (action == "remove") {
    if (old_text.empty()) return store.missing_old_text(target, "remove");
    return store.remove(target, old_text);
  }
  return tool_failure("Unknown action '" + action + "'. Use: add, replace, remove");
}

std::function<Result<std::string>(const Json&, ToolContext&)> handler(MemoryLimits limits) {
  return [limits](const Json& args, ToolContext& ctx) -> Result<std::string> {
    if (ctx.home.empty())
      return dump_json(tool_failure("Memory is not available: no hermes home is set."));
    // A target of the wrong type must not fall back to MEMORY.md.
    if (Status s = check_string_args(args, {"action", "target", "content", "old_text"}); !s.ok())
      return dump_json(tool_failure(s.message()));
    const std::string target_name =
        args.is_object() && args.contains("target") && args["target"].is_string()
            ? args["target"].get<std::string>()
            : "memory";
    if (target_name != "memory" && target_name != "user") {
      return dump_json(
          tool_failure("Invalid target '" + target_name + "'. Use 'memory' or 'user'."));
    }
    MemoryStore store(ctx.home, limits);
    Json result =
        dispatch(store, target_name == "user" ? MemoryTarget::kUser : MemoryTarget::kMemory,
                 args.is_object() ? args : Json::object());
    if (ctx.state == nullptr) return dump_json(result);
    auto failures =
        ctx.state->get_or_create<ConsolidationFailures>("memory.consolidation_failures");
    std::lock_guard<std::mutex> lock(failures->mu);
    if (result.value("success", false)) {
      failures->count = 0;
    } else if (result.contains("current_entries") &&
               ++failures->count > kMaxConsolidationFailures) {
      result = {
          {"success", false},
          {"done", true},
          {"error",
           "Memory consolidation failed " + std::to_string(failures->count) +
               " times in a row. Stop retrying memory calls: leave memory unchanged for now and "
               "continue with your reply to the user. The fact can be saved in a later turn."}};
    }
    return dump_json(result);
  };
}

}  // namespace

std::vector<ToolSpec> memory_tools(const MemoryLimits& limits) {
  ToolSpec spec;
  spec.name = "memory";
  spec.toolset = "memory";
  spec.description = kMemoryDescription;
  spec.parameters = memory_schema();
  spec.handler = handler(limits);
  spec.parallel_safe = false;
  return {std::move(spec)};
}

}  // namespace hermes::internal
