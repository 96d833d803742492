// hermes/tool.hpp — tools the model can call: their specification, the context a handler
// runs in, and the registry that holds them.
//
// Built-in toolsets register through this same API, so a user's tool is a first-class
// tool: same dispatch, same argument coercion, same progress callbacks.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/callbacks.hpp"
#include "hermes/cancel.hpp"
#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes {

class SessionStore;

// Per-agent state that tools keep between calls (a todo list, read-file guards, ...),
// keyed by a name the tool chooses. Thread-safety: internally synchronised.
class ToolSessionState {
 public:
  // Returns the object stored under `key`, default-constructing a T on first use. The
  // caller must use the same T for a key every time.
  template <typename T>
  std::shared_ptr<T> get_or_create(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = slots_[key];
    if (!slot) slot = std::make_shared<T>();
    return std::static_pointer_cast<T>(slot);
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    slots_.clear();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<void>> slots_;
};

// What a tool handler may use while it runs. Valid only during the call.
struct ToolContext {
  std::string session_id;
  std::string task_id;
  std::string tool_call_id;
  std::string tool_name;
  std::string home;                      // The hermes home directory of the agent.
  CancelToken cancel;                    // Set when the turn is interrupted: stop promptly.
  SessionStore* store = nullptr;         // The agent's session store, or nullptr.
  ToolSessionState* state = nullptr;     // Never nullptr inside an Agent.
  const Callbacks* callbacks = nullptr;  // The agent's callbacks (clarify, approval), or nullptr.
};

// A handler receives the parsed (and schema-coerced) arguments. It returns the result
// text, normally JSON, or a Status whose message becomes {"error": message} for the
// model. A handler may throw; the exception becomes an error result too.
using ToolHandler = std::function<Result<std::string>(const Json& arguments, ToolContext& context)>;

// Everything hermes needs to know about one tool.
struct ToolSpec {
  std::string name;                // What the model calls: [A-Za-z0-9_-]{1,64}.
  std::string toolset = "custom";  // The group it is enabled with.
  std::string description;
  // JSON Schema of the arguments; an object schema. Null means "no arguments".
  Json parameters;
  ToolHandler handler;

  // Optional availability probe; the tool is offered only while it returns true. Its
  // answer is remembered for `availability_ttl`; a failure within 60 s of a success is
  // taken for a flake (the tool stays offered and the next tool list asks again); a throw
  // says false. A TTL of zero asks every time, for a probe that only reads a flag.
  std::function<bool()> check_available;
  std::chrono::seconds availability_ttl{30};
  std::vector<std::string> requires_env;  // Informative: environment the tool needs.

  bool parallel_safe = true;  // May run at the same time as other calls of the batch.
  bool interactive = false;   // Needs the user (clarify): always runs alone.
  // For path-scoped tools, the argument holding the path: calls on overlapping paths
  // are not run at the same time.
  std::string path_argument;
  std::size_t max_result_chars = 0;  // 0: the default result budget.
  // How long one call may run before the agent answers it with a timeout error and
  // cancels it (see AgentOptions::ToolUse::call_timeout). Unset: the agent's deadline, or none
  // for an interactive tool (it waits on a person). Zero: no deadline. A tool that bounds
  // itself with a timeout argument of its own sets this above the largest it allows.
  std::optional<std::chrono::milliseconds> call_timeout;
};

// The tools an agent may use.
//
// Thread-safety: internally synchronised. Many agents may share one registry; tools can
// be added while agents run (an agent sees the change at its next iteration).
class HERMES_API ToolRegistry {
 public:
  ToolRegistry();
  ~ToolRegistry();
  ToolRegistry(const ToolRegistry&) = delete;
  ToolRegistry& operator=(const ToolRegistry&) = delete;

  // A new registry with this one's tools, toolsets and settings. The two share the
  // registered specs (immutable once registered) and nothing else: a change to either
  // does not reach the other. Much cheaper than registering the same tools again, so a
  // registry of the built-ins can serve as the template of per-agent ones.
  std::unique_ptr<ToolRegistry> clone() const;

  // Adds a tool. InvalidArgument for a bad name, a schema that is not an object, or a
  // missing handler; AlreadyExists when the name belongs to another toolset (unless
  // `allow_override`). The same name in the same toolset replaces the old entry.
  Status register_tool(ToolSpec spec, bool allow_override = false);

  // Removes a tool. NotFound if it is not registered.
  Status unregister_tool(std::string_view name);

  // The tool named `name`, or nullptr.
  std::shared_ptr<const ToolSpec> find(std::string_view name) const;

  // Defines a composite toolset: its own tools plus every tool of `includes`.
  void define_toolset(std::string name, std::vector<std::string> includes);

  // The names of the tools in the enabled toolsets (all toolsets when `enabled` is
  // empty), minus those in `disabled`, minus unavailable ones, sorted by name.
  std::vector<std::string> resolve(const std::vector<std::string>& enabled,
                                   const std::vector<std::string>& disabled) const;

  // OpenAI function definitions ({"type":"function","function":{...}}) of `names`, in
  // the order given; unknown names are skipped.
  Json definitions(const std::vector<std::string>& names) const;

  // Every registered tool name, sorted.
  std::vector<std::string> names() const;
  // Every toolset name, sorted.
  std::vector<std::string> toolsets() const;

  // Incremented on every change; lets callers cache definitions.
  uint64_t generation() const;

  // Settings recorded by the code that registered tools here, for other users of the
  // registry to follow: register_builtin_tools records what its memory and skills tools
  // were given, and an Agent's prompt follows them. Recording a key again replaces it.
  void record_setting(std::string key, Json value);
  std::optional<Json> setting(std::string_view key) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
