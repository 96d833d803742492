// Tool calls that overrun their deadline: answered with the timeout text, told to stop,
// and waited for only when the agent goes away.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace std::chrono_literals;
using hermes::testing::ScriptedProvider;

namespace {

struct DeadlineFixture {
  std::shared_ptr<ScriptedProvider> provider = std::make_shared<ScriptedProvider>();
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();
  hermes::testing::TempDir home;
  std::mutex mu;
  std::vector<std::string> progress;  // "started:<name>" / "completed:<name>"

  AgentOptions options() {
    AgentOptions o;
    o.model = "scripted-model";
    o.provider_instance = provider;
    o.tools = tools;
    o.home = home.path();
    o.persist_sessions = false;
    o.background_review = false;
    o.callbacks.on_tool_progress = [this](const ToolProgress& p) {
      std::lock_guard lock(mu);
      progress.push_back(std::string(p.phase == ToolProgress::Phase::kStarted ? "started:" : "completed:") +
                         p.name);
    };
    return o;
  }

  void add_tool(const std::string& name, ToolHandler handler, bool parallel_safe) {
    ToolSpec spec;
    spec.name = name;
    spec.description = "test tool " + name;
    spec.parameters = Json::parse(R"({"type":"object"})");
    spec.handler = std::move(handler);
    spec.parallel_safe = parallel_safe;
    REQUIRE(tools->register_tool(std::move(spec)).ok());
  }

  std::size_t count(const std::string& event) {
    std::lock_guard lock(mu);
    return static_cast<std::size_t>(std::count(progress.begin(), progress.end(), event));
  }
};

std::vector<std::string> tool_texts(const ConversationResult& r) {
  std::vector<std::string> out;
  for (const Message& m : r.messages) {
    if (m.role == Role::kTool) out.push_back(m.content);
  }
  return out;
}

}  // namespace

TEST_CASE("a parallel call still running at the batch deadline is answered with the timeout and cancelled") {
  DeadlineFixture f;
  std::atomic<bool> saw_cancel{false};
  f.add_tool("stuck", [&](const Json&, ToolContext& ctx) -> Result<std::string> {
    saw_cancel = ctx.cancel.wait_for(10s);
    return std::string("late result");
  }, true);
  f.add_tool("quick", [](const Json&, ToolContext&) -> Result<std::string> {
    return std::string("quick result");
  }, true);
  f.provider->tool_calls({{"stuck", "{}"}, {"quick", "{}"}});
  f.provider->text("Done anyway.");
  AgentOptions o = f.options();
  o.tool_batch_timeout = 200ms;
  {
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    const ConversationResult r = (*agent)->run_conversation("go");
    CHECK(r.completed);
    CHECK(r.final_response == "Done anyway.");
    CHECK(tool_texts(r) ==
          std::vector<std::string>{"Error executing tool 'stuck': timed out after 0.2s", "quick result"});
  }
  CHECK(saw_cancel);
  CHECK(f.count("started:stuck") == 1);
  CHECK(f.count("completed:stuck") == 1);
  CHECK(f.count("completed:quick") == 1);
}

TEST_CASE("a call that ignores its cancel token is waited for by the agent's destructor, not the turn") {
  DeadlineFixture f;
  std::atomic<bool> returned{false};
  f.add_tool("deaf", [&](const Json&, ToolContext&) -> Result<std::string> {
    std::this_thread::sleep_for(2s);
    returned = true;
    return std::string("too late");
  }, false);
  f.provider->tool_calls({{"deaf", "{}"}});
  f.provider->text("Moving on.");
  AgentOptions o = f.options();
  o.tool_call_timeout = 100ms;
  {
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    const ConversationResult r = (*agent)->run_conversation("go");
    CHECK(r.completed);
    CHECK(tool_texts(r) == std::vector<std::string>{"Error executing tool 'deaf': timed out after 0.1s"});
    CHECK_FALSE(returned);  // The turn did not wait for it.
  }
  CHECK(returned);  // The destructor did.
  CHECK(f.count("completed:deaf") == 1);
}

TEST_CASE("without a deadline a slow call is waited for and its result kept") {
  DeadlineFixture f;
  f.add_tool("slow", [](const Json&, ToolContext&) -> Result<std::string> {
    std::this_thread::sleep_for(150ms);
    return std::string("slow result");
  }, false);
  f.provider->tool_calls({{"slow", "{}"}});
  f.provider->text("Fine.");
  AgentOptions o = f.options();
  o.tool_call_timeout = 0ms;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) == std::vector<std::string>{"slow result"});
}

TEST_CASE("calls that finish within the batch deadline keep their results in call order") {
  DeadlineFixture f;
  for (const char* name : {"a", "b", "c"}) {
    f.add_tool(name, [name](const Json&, ToolContext&) -> Result<std::string> {
      return std::string("result ") + name;
    }, true);
  }
  f.provider->tool_calls({{"a", "{}"}, {"b", "{}"}, {"c", "{}"}});
  f.provider->text("All three.");
  auto agent = Agent::create(f.options());  // The default 420 s batch deadline.
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) ==
        std::vector<std::string>{"result a", "result b", "result c"});
}
