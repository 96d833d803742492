// delegate_task: sub-agents with a fresh context, a restricted toolset and their own
// budget, whose summaries (and only those) come back to the agent that delegated.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"
#include "support/event_signal.hpp"
#include "support/scripted_agent.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

bool has_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string system_of(const ProviderRequest& r) {
  return r.messages.empty() ? "" : r.messages.front().content;
}

bool is_child(const ProviderRequest& r) {
  return has_text(system_of(r), "YOUR TASK:");
}

// The goal line of a sub-agent's request.
std::string goal_of(const ProviderRequest& r) {
  const std::string system = system_of(r);
  const std::size_t start = system.find("YOUR TASK:\n") + 11;
  return system.substr(start, system.find('\n', start) - start);
}

std::vector<std::string> offered(const ProviderRequest& r) {
  std::vector<std::string> names;
  for (const Json& tool : r.tools) names.push_back(tool["function"]["name"]);
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

ProviderResponse text_reply(const std::string& text) {
  ProviderResponse r;
  r.message = Message::assistant(text);
  r.message.finish_reason = "stop";
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 5;
  r.usage.reported = true;
  return r;
}

ProviderResponse call_reply(const std::string& name, const std::string& arguments) {
  ProviderResponse r = text_reply("");
  r.message.finish_reason = "tool_calls";
  ToolCall call;
  call.id = "call_" + name;
  call.name = name;
  call.arguments = arguments;
  r.message.tool_calls.push_back(std::move(call));
  return r;
}

struct DelegateFixture : hermes::testing::ScriptedAgentFixture {
  DelegateFixture() {
    BuiltinToolOptions builtins;
    builtins.toolsets = {"todo", "clarify", "memory", "delegation"};
    REQUIRE(register_builtin_tools(*tools, builtins).ok());
    ToolSpec spec;
    spec.description = "does one step of the work";
    spec.parameters = Json::parse(R"({"type":"object","properties":{}})");
    add_tool(
        "step",
        [](const Json&, ToolContext&) -> Result<std::string> { return std::string("step done"); },
        std::move(spec));
  }

  AgentOptions options() const {
    AgentOptions o = ScriptedAgentFixture::options();
    o.compression.context_length = 256000;  // Sub-agents inherit it.
    o.tool_use.enabled_toolsets = {"todo", "clarify", "memory", "delegation", "custom"};
    return o;
  }

  std::unique_ptr<Agent> make_agent(const AgentOptions& o) const { return agent(o); }
  std::unique_ptr<Agent> make_agent() const { return agent(options()); }

  // Queues `n` copies of a step that answers by looking at the request, for calls whose
  // order (sub-agents running side by side) is not known in advance.
  void answer(int n, const std::function<ProviderResponse(const ProviderRequest&)>& fn) {
    for (int i = 0; i < n; ++i) {
      provider->step([fn](const ProviderRequest& r,
                          const CallContext&) -> Result<ProviderResponse> { return fn(r); });
    }
  }
};

// The result of the transcript's delegate_task call, parsed.
Json delegate_result(const std::vector<Message>& messages, std::size_t nth = 0) {
  for (const Message& m : messages) {
    if (m.role != Role::kTool || m.name != "delegate_task") continue;
    if (nth-- == 0) return Json::parse(m.content);
  }
  FAIL("no delegate_task result in the transcript");
  return Json();
}

}  // namespace

TEST_CASE("one delegated goal returns the sub-agent's summary and none of its history") {
  DelegateFixture f;
  f.provider->tool_calls(
      {{"delegate_task",
        R"({"goal":"count the log files","context":"they live in /var/log/app"})"}});
  f.provider->tool_calls({{"step", "{}"}});  // The sub-agent works...
  f.provider->text("Found 3 log files.");    // ...and sums up.
  f.provider->text("There are three log files.");
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("how many log files are there?");
  REQUIRE(r.completed);
  CHECK(r.final_response == "There are three log files.");

  Json result = delegate_result(r.messages);
  REQUIRE(result["results"].size() == 1);
  const Json& child = result["results"][0];
  CHECK(child["task_index"] == 0);
  CHECK(child["status"] == "completed");
  CHECK(child["summary"] == "Found 3 log files.");
  CHECK(child["exit_reason"] == "completed");
  CHECK(child["api_calls"] == 2);
  CHECK(child["model"] == "scripted-model");
  CHECK(child["tokens"] == Json{{"input", 20}, {"output", 10}});
  CHECK(child["tool_trace"] ==
        Json::parse(R"([{"tool":"step","args_bytes":2,"result_bytes":9,"status":"ok"}])"));
  CHECK_FALSE(child.contains("error"));
  CHECK(result.contains("total_duration_seconds"));

  // The sub-agent started from its task alone: a system prompt naming it, and the goal.
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 4);
  const ProviderRequest& first_child = requests[1];
  REQUIRE(is_child(first_child));
  CHECK(first_child.messages.size() == 2);
  CHECK(has_text(system_of(first_child), "count the log files"));
  CHECK(has_text(system_of(first_child), "CONTEXT:\nthey live in /var/log/app"));
  CHECK(first_child.messages[1].content == "count the log files");

  // Its intermediate messages never reach the caller's transcript.
  for (const Message& m : agent->history()) {
    for (const ToolCall& call : m.tool_calls) CHECK(call.name != "step");
    CHECK(m.content != "Found 3 log files.");
  }
  // What the sub-agent spent counts as the caller's turn.
  CHECK(r.usage.input_tokens == 40);
  CHECK(r.usage.output_tokens == 20);
}

TEST_CASE("a batch of tasks runs side by side and reports in task order") {
  DelegateFixture f;
  testing::EventSignal last_task_answered;
  f.answer(5, [&](const ProviderRequest& r) {
    if (!is_child(r)) {
      if (r.messages.back().role == Role::kTool) return text_reply("All three are done.");
      // The task list arrives as JSON text, as some models send it.
      return call_reply(
          "delegate_task",
          Json{{"tasks", R"([{"goal":"alpha"},{"goal":"beta"},{"goal":"gamma"}])"}}.dump());
    }
    const std::string goal = goal_of(r);
    // The first task finishes only after the last one has: a batch run one by one would
    // never get there.
    if (goal == "alpha") CHECK(last_task_answered.wait());
    if (goal == "gamma") last_task_answered.raise();
    return text_reply("done: " + goal);
  });
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("do three things");
  REQUIRE(r.completed);
  Json results = delegate_result(r.messages)["results"];
  REQUIRE(results.size() == 3);
  const char* goals[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; ++i) {
    CHECK(results[i]["task_index"] == i);
    CHECK(results[i]["status"] == "completed");
    CHECK(results[i]["summary"] == std::string("done: ") + goals[i]);
  }
}

TEST_CASE("a sub-agent is not offered delegate_task, memory or clarify, and cannot call them") {
  DelegateFixture f;
  f.provider->tool_calls({{"delegate_task", R"({"goal":"look around"})"}});
  f.provider->tool_calls({{"delegate_task", R"({"goal":"go deeper"})"},
                          {"memory", R"({"action":"add","target":"user","content":"x"})"},
                          {"clarify", R"({"question":"which one?"})"}});
  f.provider->text("Could not delegate; looked around myself.");
  f.provider->text("Done.");
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("explore");
  REQUIRE(r.completed);
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 4);
  CHECK(has(offered(requests[0]), "delegate_task"));  // The caller has them all.
  const std::vector<std::string> child_tools = offered(requests[1]);
  CHECK(has(child_tools, "step"));
  CHECK(has(child_tools, "todo_list"));
  for (const char* blocked : {"delegate_task", "memory", "clarify"}) {
    CHECK_MESSAGE(!has(child_tools, blocked), blocked);
  }
  // The forced calls got the loop's unknown-tool answer.
  const std::vector<Message>& seen = requests[2].messages;
  REQUIRE(seen.size() >= 3);
  for (std::size_t i = seen.size() - 3; i < seen.size(); ++i) {
    CHECK(seen[i].role == Role::kTool);
    CHECK(has_text(seen[i].content, "does not exist"));
  }

  const Json child = delegate_result(r.messages)["results"][0];
  CHECK(child["status"] == "completed");
  REQUIRE(child["tool_trace"].size() == 3);
  for (const Json& call : child["tool_trace"]) CHECK(call["status"] == "error");
}

TEST_CASE("a sub-agent that spends its budget still reports its summary, with max_iterations") {
  DelegateFixture f;
  AgentOptions o = f.options();
  o.delegation.max_iterations = 2;
  f.provider->tool_calls({{"delegate_task", R"({"goal":"keep stepping"})"}});
  f.provider->tool_calls({{"step", "{}"}});
  f.provider->tool_calls({{"step", "{}"}});
  f.provider->text("Stepped twice, not finished.");  // The summary asked for at the limit.
  f.provider->text("It ran out of steps.");
  auto agent = f.make_agent(o);

  ConversationResult r = agent->run_conversation("step a lot");
  REQUIRE(r.completed);
  const Json child = delegate_result(r.messages)["results"][0];
  CHECK(child["status"] == "completed");
  CHECK(child["exit_reason"] == "max_iterations");
  CHECK(child["summary"] == "Stepped twice, not finished.");
  CHECK(child["api_calls"] == 3);
  CHECK(child["tool_trace"].size() == 2);
}

TEST_CASE("bad delegate_task arguments get an error the model can act on") {
  struct Case {
    const char* arguments;
    const char* says;
  };
  const Case cases[] = {
      {R"({})", "provide a goal"},
      {R"({"goal":"   "})", "provide a goal"},
      // The schema's coercion wraps a lone value in a list.
      {R"({"tasks":5})", "tasks[0] must be an object"},
      {R"({"tasks":"not json"})", "tasks[0] must be an object"},
      {R"({"tasks":{"goal":"a"}})", "tasks must be a list"},
      {R"({"tasks":[]})", "tasks is empty"},
      {R"({"tasks":[{"context":"no goal here"}]})", "tasks[0] needs a non-empty goal"},
      {R"({"tasks":[{"goal":"a"},{"goal":"b"},{"goal":"c"},{"goal":"d"}]})",
       "at most 3 sub-agents run at once"},
  };
  DelegateFixture f;
  for (const Case& c : cases) f.provider->tool_calls({{"delegate_task", c.arguments}});
  f.provider->text("I will fix my calls.");
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("delegate badly");
  REQUIRE(r.completed);
  CHECK(f.provider->requests().size() == std::size(cases) + 1);  // No sub-agent started.
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const Json result = delegate_result(r.messages, i);
    REQUIRE_MESSAGE(result.contains("error"), cases[i].arguments);
    const std::string context = std::string(cases[i].arguments) + " -> " + result.dump();
    CHECK_MESSAGE(has_text(result["error"], cases[i].says), context);
  }
}

TEST_CASE("one response starts at most max_concurrent_children delegate_task calls") {
  DelegateFixture f;
  f.provider->tool_calls({{"delegate_task", R"({"goal":"first"})"},
                          {"delegate_task", R"({"goal":"second"})"},
                          {"delegate_task", R"({"goal":"third"})"},
                          {"delegate_task", R"({"goal":"fourth"})"}});
  f.answer(3, [](const ProviderRequest& r) { return text_reply("did " + goal_of(r)); });
  f.provider->text("Three done.");
  auto agent = f.make_agent();

  ConversationResult r = agent->run_conversation("four things");
  REQUIRE(r.completed);
  // The excess call is gone from the transcript, so nothing is left unanswered.
  REQUIRE(r.messages[1].tool_calls.size() == 3);
  CHECK(r.messages[1].tool_calls.back().arguments == R"({"goal":"third"})");
  for (std::size_t i = 0; i < 3; ++i) {
    const Json child = delegate_result(r.messages, i)["results"][0];
    CHECK(child["summary"] ==
          "did " + Json::parse(r.messages[1].tool_calls[i].arguments)["goal"].get<std::string>());
  }
  CHECK(f.provider->requests().size() == 5);
}

TEST_CASE("interrupting the caller interrupts its sub-agents and ends the call") {
  DelegateFixture f;
  testing::EventSignal children_waiting;
  std::atomic<int> children_cancelled{0};
  f.provider->tool_calls({{"delegate_task", R"({"tasks":[{"goal":"one"},{"goal":"two"}]})"}});
  for (int i = 0; i < 2; ++i) {
    f.provider->step(
        [&](const ProviderRequest&, const CallContext& ctx) -> Result<ProviderResponse> {
          children_waiting.raise();
          if (ctx.cancel.wait_for(testing::EventSignal::kPatience)) ++children_cancelled;
          return Status::cancelled("interrupted");
        });
  }
  auto agent = f.make_agent();

  ConversationResult r;
  std::thread turn([&] { r = agent->run_conversation("do two slow things"); });
  REQUIRE(children_waiting.wait(2));
  agent->interrupt("stop");
  turn.join();

  CHECK(r.interrupted);
  CHECK(children_cancelled == 2);
  CHECK(f.provider->requests().size() == 3);  // The caller asked nothing after the call.
  const Json results = delegate_result(r.messages)["results"];
  REQUIRE(results.size() == 2);
  for (const Json& child : results) {
    CHECK(child["status"] == "interrupted");
    CHECK(child["exit_reason"] == "interrupted");
  }
}

TEST_CASE("a sub-agent that ignores the interrupt is reported as interrupted and left behind") {
  DelegateFixture f;
  auto child_waiting = std::make_shared<testing::EventSignal>();
  auto release = std::make_shared<testing::EventSignal>();
  f.provider->tool_calls({{"delegate_task", R"({"goal":"never listens"})"}});
  // A model call that does not honour cancellation (its owner outlives this test).
  f.provider->step([child_waiting, release](const ProviderRequest&,
                                            const CallContext&) -> Result<ProviderResponse> {
    child_waiting->raise();
    release->wait();
    return text_reply("too late");
  });
  auto agent = f.make_agent();

  ConversationResult r;
  std::thread turn([&] { r = agent->run_conversation("wait for it"); });
  REQUIRE(child_waiting->wait());
  agent->interrupt("stop");
  turn.join();  // Returns after the grace period although the sub-agent is still busy.
  release->raise();

  CHECK(r.interrupted);
  const Json child = delegate_result(r.messages)["results"][0];
  CHECK(child["status"] == "interrupted");
  CHECK(child["exit_reason"] == "interrupted");
  CHECK(child["summary"] == "");
  CHECK(child["error"] == "interrupted before it finished");
}

TEST_CASE("requested toolsets narrow a sub-agent's tools but never widen them") {
  DelegateFixture f;
  f.provider->tool_calls({{"delegate_task", R"({"goal":"plan it","toolsets":["todo","file"]})"}});
  f.provider->text("Planned.");
  f.provider->text("Done.");
  auto agent = f.make_agent();

  REQUIRE(agent->run_conversation("plan").completed);
  // todo was the caller's; file was not, so it is not granted.
  CHECK(offered(f.provider->requests()[1]) == std::vector<std::string>{"todo_list"});
}

TEST_CASE("plugin hooks see each sub-agent start and stop") {
  struct Recorder : Hooks {
    std::mutex mu;
    std::vector<std::string> events;
    void subagent_start(const std::string&, std::size_t index, const std::string& goal) override {
      std::lock_guard<std::mutex> lock(mu);
      events.push_back("start " + std::to_string(index) + " " + goal);
    }
    void subagent_stop(const std::string&, std::size_t index, const std::string& status,
                       const std::string& summary, std::chrono::milliseconds) override {
      std::lock_guard<std::mutex> lock(mu);
      events.push_back("stop " + std::to_string(index) + " " + status + " " + summary);
    }
  };
  DelegateFixture f;
  auto recorder = std::make_shared<Recorder>();
  AgentOptions o = f.options();
  o.hooks = {recorder};
  f.provider->tool_calls({{"delegate_task", R"({"goal":"look"})"}});
  f.provider->text("Seen.");
  f.provider->text("Done.");
  auto agent = f.make_agent(o);

  REQUIRE(agent->run_conversation("go").completed);
  CHECK(recorder->events == std::vector<std::string>{"start 0 look", "stop 0 completed Seen."});
}

TEST_CASE("delegate_task is opt-in: an agent without named toolsets does not offer it") {
  DelegateFixture f;
  f.provider->text("Hi.");
  AgentOptions o = f.options();
  o.tool_use.enabled_toolsets.clear();
  auto agent = f.make_agent(o);
  REQUIRE(agent->run_conversation("hello").completed);
  const std::vector<std::string> tools = offered(f.provider->requests().front());
  CHECK(has(tools, "step"));
  CHECK_FALSE(has(tools, "delegate_task"));
}
