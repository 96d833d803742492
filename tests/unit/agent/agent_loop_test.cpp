// The turn loop driven by an in-process scripted provider.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "hermes/agent.hpp"
#include "support/scripted_agent.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

// The shared fixture, with the iteration budget and the x-taking tools these tests use.
struct LoopFixture : hermes::testing::ScriptedAgentFixture {
  std::unique_ptr<Agent> make_agent(int max_iterations = 90) {
    AgentOptions o = options();
    o.max_iterations = max_iterations;
    return agent(o);
  }

  void add_tool(const std::string& name, ToolHandler handler, bool parallel_safe = true) {
    ToolSpec spec;
    spec.parameters = Json::parse(R"({"type":"object","properties":{"x":{"type":"integer"}}})");
    spec.parallel_safe = parallel_safe;
    ScriptedAgentFixture::add_tool(name, std::move(handler), std::move(spec));
  }
};

using hermes::testing::tool_messages;

}  // namespace

TEST_CASE("a multi-step tool loop runs parallel calls and keeps their results in call order") {
  LoopFixture f;
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};
  auto slow = [&](const Json& args, ToolContext&) -> Result<std::string> {
    int now = ++running;
    max_running = std::max(max_running.load(), now);
    std::this_thread::sleep_for(std::chrono::milliseconds(args.value("x", 0) * 20));
    --running;
    return "slept " + std::to_string(args.value("x", 0));
  };
  f.add_tool("sleep", slow);
  f.provider->tool_calls({{"sleep", R"({"x":5})"}, {"sleep", R"({"x":1})"}});
  f.provider->tool_calls({{"sleep", R"({"x":2})"}});
  f.provider->text("All done.");
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("sleep a bit");
  CHECK(r.completed);
  CHECK(r.final_response == "All done.");
  CHECK(r.api_calls == 3);
  CHECK(r.exit_reason == "text_response(finish_reason=stop)");
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 3);
  CHECK(results[0]->content == "slept 5");  // The slower call, first in the request.
  CHECK(results[1]->content == "slept 1");
  CHECK(results[2]->content == "slept 2");
  CHECK(max_running.load() == 2);
  // The second request carries both results right after the assistant's calls.
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 3);
  const auto& msgs = requests[1].messages;
  REQUIRE(msgs.size() >= 4);
  CHECK(msgs[msgs.size() - 3].role == Role::kAssistant);
  CHECK(msgs[msgs.size() - 2].tool_call_id == msgs[msgs.size() - 3].tool_calls[0].id);
  CHECK(msgs[msgs.size() - 1].tool_call_id == msgs[msgs.size() - 3].tool_calls[1].id);
}

TEST_CASE("an unknown tool is answered with an error the model can read") {
  LoopFixture f;
  f.add_tool("add", [](const Json&, ToolContext&) -> Result<std::string> { return "3"; });
  f.provider->tool_calls({{"frobnicate", "{}"}});
  f.provider->text("Sorry.");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  CHECK(r.completed);
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 1);
  CHECK(results[0]->content == "Tool 'frobnicate' does not exist. Available tools: add");
}

TEST_CASE("a tool name the model mangled is repaired") {
  LoopFixture f;
  f.add_tool("read_file",
             [](const Json&, ToolContext&) -> Result<std::string> { return "contents"; });
  f.provider->tool_calls({{"ReadFile", "{}"}});
  f.provider->text("ok");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 1);
  CHECK(results[0]->content == "contents");
  CHECK(results[0]->name == "read_file");
}

TEST_CASE("broken JSON arguments are asked again, then answered with an error") {
  LoopFixture f;
  int calls = 0;
  f.add_tool("add", [&](const Json&, ToolContext&) -> Result<std::string> {
    ++calls;
    return "3";
  });
  for (int i = 0; i < 4; ++i)
    f.provider->tool_calls({{"add", R"({"x": 1,})"}, {"add", R"({"x":2})"}});
  f.provider->text("gave up");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  CHECK(r.completed);
  CHECK(calls == 0);
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 2);
  CHECK(results[0]->content.rfind("Error: Invalid JSON arguments.", 0) == 0);
  CHECK(results[1]->content == "Skipped: other tool call in this response had invalid JSON.");
  CHECK(r.api_calls == 5);
}

TEST_CASE("a spent iteration budget ends with one summary call without tools") {
  LoopFixture f;
  f.add_tool("add", [](const Json&, ToolContext&) -> Result<std::string> { return "3"; });
  f.provider->tool_calls({{"add", "{}"}});
  f.provider->tool_calls({{"add", "{}"}});
  f.provider->text("I added things twice.");
  auto agent = f.make_agent(/*max_iterations=*/2);
  ConversationResult r = agent->run_conversation("keep adding");
  CHECK_FALSE(r.completed);
  CHECK(r.final_response == "I added things twice.");
  CHECK(r.exit_reason == "max_iterations_reached(2/2)");
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[2].tools.empty());
  CHECK(requests[2].messages.back().content.rfind("You've reached the maximum number", 0) == 0);
  CHECK(r.messages.back().role == Role::kAssistant);
}

TEST_CASE("a rate limit with Retry-After is waited out and the call retried") {
  LoopFixture f;
  f.provider->error(429, "Rate limit reached", 0.01);
  f.provider->text("fine now");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("hi");
  CHECK(r.completed);
  CHECK(r.final_response == "fine now");
  CHECK(f.provider->requests().size() == 2);
}

TEST_CASE("a failing provider ends the turn with an error and keeps the user message") {
  LoopFixture f;
  for (int i = 0; i < 3; ++i) f.provider->error(500, "upstream exploded", 0.0);
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("hello there");
  CHECK_FALSE(r.completed);
  CHECK(r.failed);
  CHECK_FALSE(r.final_response.has_value());
  CHECK(r.error.find("upstream exploded") != std::string::npos);
  REQUIRE(!r.messages.empty());
  CHECK(r.messages.back().content == "hello there");
  CHECK(agent->history().size() == 1);
}

TEST_CASE("a tool that throws becomes an error result and the loop goes on") {
  LoopFixture f;
  f.add_tool("boom", [](const Json&, ToolContext&) -> Result<std::string> {
    throw std::runtime_error("kaboom");
  });
  f.provider->tool_calls({{"boom", "{}"}});
  f.provider->text("recovered");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  CHECK(r.completed);
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 1);
  CHECK(results[0]->content.find("kaboom") != std::string::npos);
  CHECK(results[0]->content.find("std::runtime_error") != std::string::npos);
}

TEST_CASE("repeated tool-call ids are executed once each under unique ids") {
  LoopFixture f;
  std::atomic<int> calls{0};  // The two calls of the batch run in parallel.
  f.add_tool("add", [&](const Json&, ToolContext&) -> Result<std::string> {
    return std::to_string(++calls);
  });
  f.provider->step([](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    ProviderResponse resp;
    resp.message = Message::assistant("");
    resp.message.tool_calls = {{"dup", "add", R"({"x":1})", nullptr},
                               {"dup", "add", R"({"x":2})", nullptr}};
    return resp;
  });
  f.provider->text("done");
  auto agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  CHECK(calls == 2);
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 2);
  CHECK(results[0]->tool_call_id == "dup");
  CHECK(results[1]->tool_call_id == "dup_d1");
}

TEST_CASE("the agent keeps its history between turns") {
  LoopFixture f;
  f.provider->text("Hello!");
  f.provider->text("You said hi.");
  auto agent = f.make_agent();
  CHECK(agent->chat("hi").value() == "Hello!");
  CHECK(agent->chat("what did I say?").value() == "You said hi.");
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 2);
  // system + user + assistant + user
  CHECK(requests[1].messages.size() == 4);
  CHECK(requests[1].messages[1].content == "hi");
}

TEST_CASE("options without a model are rejected naming the field") {
  AgentOptions o;
  o.persistence.enabled = false;
  auto agent = Agent::create(o);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().code() == StatusCode::kInvalidArgument);
  CHECK(agent.status().message().rfind("provider.model", 0) == 0);
}

TEST_CASE("an interrupt during a tool stops the turn and leaves a valid transcript") {
  LoopFixture f;
  std::unique_ptr<Agent> agent;
  f.add_tool("wait", [&](const Json&, ToolContext& ctx) -> Result<std::string> {
    agent->interrupt("stop please");
    ctx.cancel.wait_for(std::chrono::seconds(5));
    return Status::cancelled("interrupted");
  });
  f.provider->tool_calls({{"wait", "{}"}});
  f.provider->text("never reached");
  agent = f.make_agent();
  ConversationResult r = agent->run_conversation("go");
  CHECK(r.interrupted);
  CHECK_FALSE(r.completed);
  CHECK(r.exit_reason == "interrupted_by_user");
  CHECK(r.interrupt_message == "stop please");
  CHECK(r.messages.back().role == Role::kAssistant);
  CHECK(f.provider->remaining() == 1);
}
