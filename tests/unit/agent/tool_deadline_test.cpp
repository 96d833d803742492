// Tool calls that overrun their deadline: answered with the timeout text, told to stop,
// and waited for only when the agent goes away.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"
#include "support/scripted_agent.hpp"

using namespace hermes;
using namespace std::chrono_literals;
using hermes::testing::ScriptedProvider;

namespace {

// The shared fixture, recording each call's start and end from on_tool_progress.
struct DeadlineFixture : hermes::testing::ScriptedAgentFixture {
  std::mutex mu;
  std::vector<std::string> progress;  // "started:<name>" / "completed:<name>"

  AgentOptions options() {
    AgentOptions o = ScriptedAgentFixture::options();
    o.callbacks.on_tool_progress = [this](const ToolProgress& p) {
      std::lock_guard lock(mu);
      progress.push_back(
          std::string(p.phase == ToolProgress::Phase::kStarted ? "started:" : "completed:") +
          p.name);
    };
    return o;
  }

  void add_tool(const std::string& name, ToolHandler handler, bool parallel_safe,
                std::optional<std::chrono::milliseconds> call_timeout = std::nullopt,
                bool interactive = false) {
    ToolSpec spec;
    spec.parallel_safe = parallel_safe;
    spec.call_timeout = call_timeout;
    spec.interactive = interactive;
    ScriptedAgentFixture::add_tool(name, std::move(handler), std::move(spec));
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

TEST_CASE(
    "a parallel call still running at the batch deadline is answered with the timeout and "
    "cancelled") {
  DeadlineFixture f;
  std::atomic<bool> saw_cancel{false};
  f.add_tool(
      "stuck",
      [&](const Json&, ToolContext& ctx) -> Result<std::string> {
        saw_cancel = ctx.cancel.wait_for(10s);
        return std::string("late result");
      },
      true);
  f.add_tool(
      "quick",
      [](const Json&, ToolContext&) -> Result<std::string> { return std::string("quick result"); },
      true);
  f.provider->tool_calls({{"stuck", "{}"}, {"quick", "{}"}});
  f.provider->text("Done anyway.");
  AgentOptions o = f.options();
  o.tool_use.batch_timeout = 200ms;
  {
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    const ConversationResult r = (*agent)->run_conversation("go");
    CHECK(r.completed);
    CHECK(r.final_response == "Done anyway.");
    CHECK(tool_texts(r) ==
          std::vector<std::string>{"Error executing tool 'stuck': timed out after 0.2s",
                                   "quick result"});
  }
  CHECK(saw_cancel);
  CHECK(f.count("started:stuck") == 1);
  CHECK(f.count("completed:stuck") == 1);
  CHECK(f.count("completed:quick") == 1);
}

TEST_CASE(
    "a call that ignores its cancel token is waited for by the agent's destructor, not the turn") {
  DeadlineFixture f;
  std::atomic<bool> returned{false};
  f.add_tool(
      "deaf",
      [&](const Json&, ToolContext&) -> Result<std::string> {
        std::this_thread::sleep_for(2s);
        returned = true;
        return std::string("too late");
      },
      false);
  f.provider->tool_calls({{"deaf", "{}"}});
  f.provider->text("Moving on.");
  AgentOptions o = f.options();
  o.tool_use.call_timeout = 100ms;
  {
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    const ConversationResult r = (*agent)->run_conversation("go");
    CHECK(r.completed);
    CHECK(tool_texts(r) ==
          std::vector<std::string>{"Error executing tool 'deaf': timed out after 0.1s"});
    CHECK_FALSE(returned);  // The turn did not wait for it.
  }
  CHECK(returned);  // The destructor did.
  CHECK(f.count("completed:deaf") == 1);
}

TEST_CASE("without a deadline a slow call is waited for and its result kept") {
  DeadlineFixture f;
  f.add_tool(
      "slow",
      [](const Json&, ToolContext&) -> Result<std::string> {
        std::this_thread::sleep_for(150ms);
        return std::string("slow result");
      },
      false);
  f.provider->tool_calls({{"slow", "{}"}});
  f.provider->text("Fine.");
  AgentOptions o = f.options();
  o.tool_use.call_timeout = 0ms;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) == std::vector<std::string>{"slow result"});
}

TEST_CASE("calls that finish within the batch deadline keep their results in call order") {
  DeadlineFixture f;
  for (const char* name : {"a", "b", "c"}) {
    f.add_tool(
        name,
        [name](const Json&, ToolContext&) -> Result<std::string> {
          return std::string("result ") + name;
        },
        true);
  }
  f.provider->tool_calls({{"a", "{}"}, {"b", "{}"}, {"c", "{}"}});
  f.provider->text("All three.");
  auto agent = Agent::create(f.options());  // The default 420 s batch deadline.
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) ==
        std::vector<std::string>{"result a", "result b", "result c"});
}

TEST_CASE("a call run on its own has a deadline by default, the same as a group's") {
  const AgentOptions defaults;
  CHECK(defaults.tool_use.call_timeout == 420'000ms);
  CHECK(defaults.tool_use.call_timeout == defaults.tool_use.batch_timeout);
}

TEST_CASE("a tool's own deadline replaces the agent's for a call run on its own") {
  DeadlineFixture f;
  std::atomic<bool> saw_cancel{false};
  f.add_tool(
      "stuck",
      [&](const Json&, ToolContext& ctx) -> Result<std::string> {
        saw_cancel = ctx.cancel.wait_for(10s);
        return std::string("late");
      },
      false, 100ms);
  f.provider->tool_calls({{"stuck", "{}"}});
  f.provider->text("Moving on.");
  {
    auto agent = Agent::create(f.options());  // The agent's own deadline: seven minutes.
    REQUIRE(agent.ok());
    const ConversationResult r = (*agent)->run_conversation("go");
    CHECK(tool_texts(r) ==
          std::vector<std::string>{"Error executing tool 'stuck': timed out after 0.1s"});
  }
  CHECK(saw_cancel);
}

TEST_CASE("a tool's longer deadline lengthens the deadline of its parallel group") {
  DeadlineFixture f;
  f.add_tool(
      "patient",
      [](const Json&, ToolContext& ctx) -> Result<std::string> {
        ctx.cancel.wait_for(300ms);
        return std::string(ctx.cancel.cancelled() ? "cancelled" : "patient result");
      },
      true, 20s);
  f.add_tool(
      "quick",
      [](const Json&, ToolContext&) -> Result<std::string> { return std::string("quick result"); },
      true);
  f.provider->tool_calls({{"patient", "{}"}, {"quick", "{}"}});
  f.provider->text("Both.");
  AgentOptions o = f.options();
  o.tool_use.batch_timeout = 100ms;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) ==
        std::vector<std::string>{"patient result", "quick result"});
}

TEST_CASE("interactive tools and tools that ask for none have no deadline") {
  DeadlineFixture f;
  auto slow = [](const Json&, ToolContext& ctx) -> Result<std::string> {
    ctx.cancel.wait_for(300ms);
    return std::string(ctx.cancel.cancelled() ? "cancelled" : "answered");
  };
  f.add_tool("ask", slow, false, std::nullopt, /*interactive=*/true);
  f.add_tool("unbounded", slow, false, 0ms);
  f.provider->tool_calls({{"ask", "{}"}});
  f.provider->tool_calls({{"unbounded", "{}"}});
  f.provider->text("Done.");
  AgentOptions o = f.options();
  o.tool_use.call_timeout = 100ms;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) ==
        std::vector<std::string>{"answered", "answered"});
}

TEST_CASE("the terminal tools' deadline covers their longest command and an approval wait") {
  auto registry = std::make_shared<ToolRegistry>();
  hermes::testing::TempDir root;
  BuiltinToolOptions options;
  options.toolsets = {"terminal", "delegation", "clarify", "file"};
  options.file.root = root.path();
  REQUIRE(register_builtin_tools(*registry, options).ok());
  for (const char* name : {"terminal", "process_manage"}) {
    CAPTURE(name);
    auto spec = registry->find(name);
    REQUIRE(spec);
    REQUIRE(spec->call_timeout.has_value());
    CHECK(*spec->call_timeout >
          options.terminal.max_timeout + options.approvals.timeout + options.terminal.kill_grace);
  }
  CHECK(registry->find("delegate_task")->call_timeout == 0ms);
  CHECK_FALSE(registry->find("clarify")->call_timeout.has_value());    // Interactive: none.
  CHECK_FALSE(registry->find("read_file")->call_timeout.has_value());  // The agent's.
}

TEST_CASE("tool arguments nested a hundred thousand deep come back as an error the model reads") {
  DeadlineFixture f;
  std::atomic<int> ran{0};
  f.add_tool(
      "take",
      [&](const Json&, ToolContext&) -> Result<std::string> {
        ++ran;
        return std::string("took it");
      },
      false);
  const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  for (int i = 0; i < 4; ++i) f.provider->tool_calls({{"take", deep}});  // Retried three times.
  f.provider->text("Understood.");
  auto agent = Agent::create(f.options());
  REQUIRE(agent.ok());
  const ConversationResult r = (*agent)->run_conversation("go");
  CHECK(r.completed);
  CHECK(ran == 0);
  const std::vector<std::string> texts = tool_texts(r);
  REQUIRE(texts.size() == 1);
  CHECK(
      texts[0] ==
      "Error: Invalid JSON arguments. Arguments are JSON nested deeper than 256 levels. For "
      "tools with no required parameters, use an empty object: {}. Please retry with valid JSON.");
}

TEST_CASE(
    "a call that returned in time but is still being finished at the deadline is finished once") {
  // The handler returns at once; the post_tool_call hook is slow, so the deadline passes
  // while the worker finishes the call. The call keeps its result, and the hook and the
  // completion report run once.
  struct SlowPostHook : Hooks {
    std::atomic<int> calls{0};
    void post_tool_call(const std::string&, const Json&, std::string_view,
                        std::chrono::milliseconds, bool) override {
      ++calls;
      std::this_thread::sleep_for(600ms);
    }
  };
  DeadlineFixture f;
  f.add_tool(
      "quick", [](const Json&, ToolContext&) -> Result<std::string> { return std::string("done"); },
      false, 100ms);
  f.provider->tool_calls({{"quick", "{}"}});
  f.provider->text("Fine.");
  auto hook = std::make_shared<SlowPostHook>();
  AgentOptions o = f.options();
  o.hooks = {hook};
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK(tool_texts((*agent)->run_conversation("go")) == std::vector<std::string>{"done"});
  CHECK(hook->calls == 1);
  CHECK(f.count("completed:quick") == 1);
}
