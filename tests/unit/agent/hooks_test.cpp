// Plugin hooks at their points of the turn.
#include <doctest/doctest.h>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

struct RecordingHooks : Hooks {
  std::vector<std::string> events;
  std::string pre_llm_call(const std::string&, const std::string& user) override {
    events.push_back("pre_llm_call:" + user);
    return "Remember: the user likes tea.";
  }
  void pre_api_request(const ProviderRequest&) override { events.push_back("pre_api_request"); }
  void post_api_request(const ProviderRequest&, const ProviderResponse&) override {
    events.push_back("post_api_request");
  }
  ToolCallDecision pre_tool_call(const std::string& name, const Json& args) override {
    events.push_back("pre_tool_call:" + name);
    ToolCallDecision d;
    if (name == "forbidden") {
      d.block = true;
      d.block_message = "not allowed here";
    } else if (args.value("x", 0) == 1) {
      d.arguments = Json{{"x", 41}};
    }
    return d;
  }
  void post_tool_call(const std::string& name, const Json&, std::string_view result,
                      std::chrono::milliseconds, bool is_error) override {
    events.push_back("post_tool_call:" + name + ":" + std::string(result) +
                     (is_error ? ":error" : ""));
  }
  std::optional<std::string> transform_tool_result(const std::string& name, const Json&,
                                                   std::string_view result) override {
    if (name == "echo") return "[" + std::string(result) + "]";
    return std::nullopt;
  }
  std::optional<std::string> transform_llm_output(std::string_view text) override {
    return std::string(text) + " (checked)";
  }
  void post_llm_call(const std::string&, const std::string& response) override {
    events.push_back("post_llm_call:" + response);
  }
  void on_session_end(const std::string&, const std::vector<Message>& messages) override {
    events.push_back("on_session_end:" + std::to_string(messages.size()));
  }
};

struct ThrowingHooks : Hooks {
  std::string pre_llm_call(const std::string&, const std::string&) override {
    throw std::runtime_error("plugin bug");
  }
  ToolCallDecision pre_tool_call(const std::string&, const Json&) override {
    throw std::runtime_error("plugin bug");
  }
};

}  // namespace

TEST_CASE("hooks inject context, gate and rewrite tools, and transform the answer") {
  auto provider = std::make_shared<ScriptedProvider>();
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec echo;
  echo.name = "echo";
  echo.handler = [](const Json& args, ToolContext&) -> Result<std::string> { return args.dump(); };
  // In order, one at a time: the recorded hook events are compared as a sequence.
  echo.parallel_safe = false;
  REQUIRE(tools->register_tool(echo).ok());
  ToolSpec forbidden = echo;
  forbidden.name = "forbidden";
  int forbidden_runs = 0;
  forbidden.handler = [&](const Json&, ToolContext&) -> Result<std::string> {
    ++forbidden_runs;
    return "ran";
  };
  REQUIRE(tools->register_tool(forbidden).ok());
  provider->tool_calls({{"echo", R"({"x":1})"}, {"forbidden", "{}"}});
  provider->text("Done");

  auto hooks = std::make_shared<RecordingHooks>();
  hermes::testing::TempDir home;
  AgentOptions o;
  o.provider.model = "m";
  o.provider.instance = provider;
  o.tools = tools;
  o.home = home.path();
  o.persistence.store = make_memory_store();
  o.hooks = {std::make_shared<ThrowingHooks>(), hooks};
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hello");

  CHECK(r.completed);
  CHECK(r.final_response == "Done (checked)");
  CHECK(forbidden_runs == 0);
  // The plugin context reaches the model but not the visible transcript.
  const Message& user = r.messages.front();
  CHECK(user.content == "hello");
  CHECK(user.api_content == "hello\n\nRemember: the user likes tea.");
  CHECK(provider->requests()[0].messages[1].content == "hello\n\nRemember: the user likes tea.");
  std::vector<const Message*> results;
  for (const auto& m : r.messages) {
    if (m.role == Role::kTool) results.push_back(&m);
  }
  REQUIRE(results.size() == 2);
  CHECK(results[0]->content == R"([{"x":41}])");
  CHECK(results[1]->content == R"({"error":"not allowed here"})");
  CHECK(hooks->events ==
        std::vector<std::string>{
            "pre_llm_call:hello", "pre_api_request", "post_api_request", "pre_tool_call:echo",
            R"(post_tool_call:echo:[{"x":41}])", "pre_tool_call:forbidden",
            R"(post_tool_call:forbidden:{"error":"not allowed here"}:error)", "pre_api_request",
            "post_api_request", "post_llm_call:Done (checked)", "on_session_end:5"});
}
