// register_builtin_tools, its toolsets and presets, and one built-in driven through the
// real agent loop with the scripted provider.
#include "hermes/builtin_tools.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "common/atomic_file.hpp"
#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;
using hermes::testing::TempDir;

namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_CASE("every built-in toolset registers, and the defaults leave out files and the shell") {
  TempDir root;
  ToolRegistry registry;
  BuiltinToolOptions options;
  options.file.root = root.path();
  REQUIRE(register_builtin_tools(registry, options).ok());
  for (const char* tool :
       {"todo_list", "clarify", "memory", "skills_list", "skill_view", "skill_manage", "read_file",
        "write_file", "patch", "search_files", "terminal", "process_manage", "delegate_task"}) {
    CHECK_MESSAGE(registry.find(tool) != nullptr, tool);
  }
  const std::vector<std::string> defaults = registry.resolve(default_toolsets(), {});
  CHECK(has(defaults, "todo_list"));
  CHECK(has(defaults, "memory"));
  CHECK(has(defaults, "skill_view"));
  CHECK(has(defaults, "clarify"));
  CHECK_FALSE(has(defaults, "read_file"));
  CHECK_FALSE(has(defaults, "terminal"));
  CHECK_FALSE(has(defaults, "delegate_task"));  // Sub-agents spend model calls: opt-in.
  CHECK(has(registry.resolve({"coding"}, {}), "delegate_task"));
  CHECK(registry.resolve({"debugging"}, {}) == std::vector<std::string>{"patch", "process_manage",
                                                                        "read_file", "search_files",
                                                                        "terminal", "write_file"});
  CHECK_FALSE(has(registry.resolve({"headless"}, {}), "clarify"));
  CHECK(registry.find("terminal")->toolset == "terminal");
  CHECK(registry.find("write_file")->path_argument == "path");
  CHECK(registry.find("clarify")->interactive);
}

TEST_CASE("registering a subset, twice, works; unknown toolsets and roots are errors") {
  ToolRegistry registry;
  BuiltinToolOptions options;
  options.toolsets = {"todo", "memory"};
  REQUIRE(register_builtin_tools(registry, options).ok());
  REQUIRE(register_builtin_tools(registry, options).ok());  // Same toolsets: replaced.
  CHECK(registry.find("terminal") == nullptr);
  options.toolsets = {"todo", "browser"};
  CHECK(register_builtin_tools(registry, options).code() == StatusCode::kInvalidArgument);
  BuiltinToolOptions bad_root;
  bad_root.toolsets = {"file"};
  bad_root.file.root = "/definitely/not/a/dir";
  CHECK(register_builtin_tools(registry, bad_root).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a cloned registry starts equal and then goes its own way") {
  TempDir root;
  ToolRegistry original;
  BuiltinToolOptions options;
  options.file.root = root.path();
  options.memory.memory_chars = 1234;
  REQUIRE(register_builtin_tools(original, options).ok());
  std::unique_ptr<ToolRegistry> copy = original.clone();
  CHECK(copy->names() == original.names());
  CHECK(copy->toolsets() == original.toolsets());
  CHECK(copy->resolve({"coding"}, {}) == original.resolve({"coding"}, {}));
  CHECK(copy->find("terminal") == original.find("terminal"));  // The spec is shared.
  REQUIRE(builtin_memory_limits(*copy).has_value());
  CHECK(builtin_memory_limits(*copy)->memory_chars == 1234);

  ToolSpec extra;
  extra.name = "extra";
  extra.toolset = "custom";
  extra.parameters = Json{{"type", "object"}};
  extra.handler = [](const Json&, ToolContext&) -> Result<std::string> { return std::string("x"); };
  REQUIRE(copy->register_tool(extra).ok());
  REQUIRE(copy->unregister_tool("terminal").ok());
  copy->define_toolset("mine", {"custom"});
  copy->record_setting("memory", Json::object());
  CHECK(original.find("extra") == nullptr);
  CHECK(original.find("terminal") != nullptr);
  CHECK_FALSE(has(original.toolsets(), "mine"));
  CHECK(builtin_memory_limits(original)->memory_chars == 1234);
  REQUIRE(original.unregister_tool("todo_list").ok());
  CHECK(copy->find("todo_list") != nullptr);
}

TEST_CASE("built-in tools run through the agent loop like any tool") {
  TempDir home;
  TempDir workspace;
  auto provider = std::make_shared<ScriptedProvider>();
  auto tools = std::make_shared<ToolRegistry>();
  BuiltinToolOptions builtins;
  builtins.file.root = workspace.path();
  REQUIRE(register_builtin_tools(*tools, builtins).ok());

  provider->tool_calls(
      {{"todo_list",
        R"({"todos":[{"id":"1","content":"write the greeting","status":"in_progress"}]})"},
       {"write_file", R"({"path":"hello.txt","content":"hi there\n"})"}});
  provider->tool_calls(
      {{"read_file", R"({"path":"hello.txt"})"}, {"terminal", R"({"command":"cat hello.txt"})"}});
  provider->text("Wrote and checked the greeting.");

  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = provider;
  o.tools = tools;
  o.home = home.path();
  o.persistence.enabled = false;
  o.tool_use.enabled_toolsets = default_toolsets();
  o.tool_use.enabled_toolsets.push_back("file");
  o.tool_use.enabled_toolsets.push_back("terminal");
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("write hello.txt and check it");
  CHECK(r.completed);
  CHECK(r.final_response == "Wrote and checked the greeting.");
  CHECK(*internal::read_whole_file(workspace.file("hello.txt")) == "hi there\n");

  std::vector<const Message*> results;
  for (const Message& m : r.messages) {
    if (m.role == Role::kTool) results.push_back(&m);
  }
  REQUIRE(results.size() == 4);
  CHECK(results[0]->content.find("\"revision\":1") != std::string::npos);
  CHECK(results[1]->content.find("\"created\":true") != std::string::npos);
  CHECK(results[2]->content.find("1|hi there") != std::string::npos);
  CHECK(results[3]->content.find("\"output\":\"hi there\"") != std::string::npos);

  // The model was offered the enabled built-ins and nothing else.
  const auto requests = provider->requests();
  REQUIRE_FALSE(requests.empty());
  std::vector<std::string> offered;
  for (const Json& def : requests[0].tools) offered.push_back(def["function"]["name"]);
  CHECK(has(offered, "terminal"));
  CHECK(has(offered, "todo_list"));
  CHECK_FALSE(has(offered, "session_search"));  // Not registered here: another area provides it.
}
