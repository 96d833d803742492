// The self-improvement loop: nudges earn a background review, whose agent saves skills
// and memories that the next session's system prompt shows.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/text_utils.hpp"
#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"
#include "hermes/log.hpp"
#include "support/event_signal.hpp"
#include "support/scripted_agent.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

const char* kSkillCall =
    R"({"action":"create","name":"deploy-flow","content":"---\nname: deploy-flow\ndescription: Deploy the service in small verified steps\n---\n# Deploy\n\n1. Build.\n2. Verify.\n"})";

// Collects the log lines that say a review started (logged on the turn's thread, before
// run_conversation returns).
class ReviewStarts {
 public:
  ReviewStarts() {
    set_log_level(LogLevel::kInfo);
    set_log_sink([this](LogLevel, std::string_view line) {
      if (line.find("background review started") != std::string_view::npos) ++count_;
    });
  }
  ~ReviewStarts() {
    set_log_sink(nullptr);
    set_log_level(LogLevel::kWarning);
  }
  int count() const { return count_.load(); }

 private:
  std::atomic<int> count_{0};
};

struct ReviewFixture : hermes::testing::ScriptedAgentFixture {
  std::atomic<int> step_calls{0};
  std::function<void(int)> on_step;  // Told the running count of step calls.
  testing::EventSignal reviews;      // Summaries reported with kind "review".

  ReviewFixture() {
    BuiltinToolOptions builtins;
    builtins.toolsets = {"memory", "skills"};
    REQUIRE(register_builtin_tools(*tools, builtins).ok());
    ToolSpec spec;
    spec.description = "does one step of the work";
    spec.parameters = Json::parse(R"({"type":"object","properties":{}})");
    add_tool(
        "step",
        [this](const Json&, ToolContext&) -> Result<std::string> {
          const int n = ++step_calls;
          if (on_step) on_step(n);
          return std::string("ok");
        },
        std::move(spec));
  }

  // The review is what these tests are about: on, reporting through on_status.
  AgentOptions options() {
    AgentOptions o = ScriptedAgentFixture::options();
    o.review.enabled = true;
    o.review.memory_nudge_interval = 0;
    o.callbacks.on_status = [this](std::string_view kind, std::string_view message) {
      if (kind == "review") reviews.raise(std::string(message));
    };
    return o;
  }

  std::unique_ptr<Agent> make_agent(const AgentOptions& o) const { return agent(o); }

  void script_tool_iterations(int n) {
    for (int i = 0; i < n; ++i) provider->tool_calls({{"step", "{}"}});
    provider->text("Deployed.");
  }
};

}  // namespace

TEST_CASE("ten tool iterations earn a skills review whose new skill the next session lists") {
  ReviewFixture f;
  f.script_tool_iterations(10);
  f.provider->tool_calls({{"skill_manage", kSkillCall}});  // The review.
  f.provider->text("Saved the deploy procedure.");
  auto agent = f.make_agent(f.options());

  ConversationResult r = agent->run_conversation("deploy the service");
  CHECK(r.completed);
  CHECK(r.final_response == "Deployed.");
  REQUIRE(f.reviews.wait());
  CHECK(f.reviews.values() == std::vector<std::string>{"Skill created: deploy-flow"});
  CHECK_FALSE(internal::contains(agent->system_prompt(), "deploy-flow"));

  // The review saw the whole conversation, then its own instructions, with only the
  // memory and skills tools on offer.
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 13);
  const ProviderRequest& review = requests[11];
  REQUIRE(review.messages.size() == requests[10].messages.size() + 2);
  CHECK(review.messages[1].content == "deploy the service");
  CHECK(internal::contains(review.messages.back().content, "skill"));
  std::vector<std::string> offered;
  for (const Json& tool : review.tools) offered.push_back(tool["function"]["name"]);
  CHECK(offered == std::vector<std::string>{"memory", "skill_manage", "skill_view", "skills_list"});
  // The host's transcript is untouched by the review.
  CHECK(agent->history().size() == r.messages.size());

  f.provider->text("Hello again.");
  REQUIRE(agent->new_session().ok());
  CHECK(agent->run_conversation("hi").completed);
  CHECK(internal::contains(agent->system_prompt(), "deploy-flow"));
  CHECK(internal::contains(agent->system_prompt(), "Deploy the service in small verified steps"));
}

TEST_CASE("the skills nudge counts iterations across turns and resets when skill_manage is used") {
  ReviewFixture f;
  ReviewStarts starts;
  AgentOptions o = f.options();
  o.review.skill_nudge_interval = 4;
  auto agent = f.make_agent(o);

  f.script_tool_iterations(3);
  CHECK(agent->run_conversation("first part").completed);
  CHECK(starts.count() == 0);

  // Using skill_manage itself starts the count over...
  f.provider->tool_calls({{"skill_manage", kSkillCall}});
  f.provider->tool_calls({{"step", "{}"}});
  f.provider->text("Done.");
  CHECK(agent->run_conversation("second part").completed);
  CHECK(starts.count() == 0);

  // ...and the iterations of later turns add up until the interval is reached.
  f.script_tool_iterations(3);
  f.provider->text("Nothing to save.");  // The review.
  CHECK(agent->run_conversation("third part").completed);
  CHECK(starts.count() == 1);
}

TEST_CASE("a memory written in one session reaches the next session's prompt, not its own") {
  ReviewFixture f;
  f.provider->tool_calls(
      {{"memory", R"({"action":"add","target":"user","content":"Prefers tabs over spaces."})"}});
  f.provider->text("Noted.");
  f.provider->text("Still here.");
  auto agent = f.make_agent(f.options());

  CHECK(agent->run_conversation("remember that I like tabs").completed);
  CHECK_FALSE(internal::contains(agent->system_prompt(), "Prefers tabs"));
  CHECK(agent->run_conversation("and now?").completed);
  CHECK_FALSE(internal::contains(agent->system_prompt(), "Prefers tabs"));
  CHECK_FALSE(
      internal::contains(f.provider->requests().back().messages[0].content, "Prefers tabs"));

  f.provider->text("Hello.");
  REQUIRE(agent->new_session().ok());
  CHECK(agent->run_conversation("hi").completed);
  CHECK(internal::contains(agent->system_prompt(), "Prefers tabs over spaces."));
  CHECK(internal::contains(f.provider->requests().back().messages[0].content,
                           "Prefers tabs over spaces."));
}

TEST_CASE("a memory review runs every nudge interval of user turns and reports what it saved") {
  ReviewFixture f;
  AgentOptions o = f.options();
  o.review.memory_nudge_interval = 2;
  auto agent = f.make_agent(o);

  f.provider->text("Hi.");
  CHECK(agent->run_conversation("I am Ada, call me by my first name").completed);
  f.provider->text("Sure, Ada.");
  f.provider->tool_calls(
      {{"memory", R"({"action":"add","target":"user","content":"Name: Ada."})"}});
  f.provider->text("Saved.");
  CHECK(agent->run_conversation("thanks").completed);
  REQUIRE(f.reviews.wait());
  CHECK(f.reviews.values() == std::vector<std::string>{"User profile updated"});
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 4);
  CHECK(internal::contains(requests[2].messages.back().content, "memory"));
}

TEST_CASE("no review starts after an interrupted turn or when the intervals are 0") {
  ReviewFixture f;
  ReviewStarts starts;

  SUBCASE("interrupted") {
    auto agent = f.make_agent(f.options());
    Agent* raw = agent.get();
    // The tenth tool iteration runs, then the user interrupts.
    f.on_step = [raw](int n) {
      if (n == 10) raw->interrupt("stop");
    };
    f.script_tool_iterations(10);
    ConversationResult r = agent->run_conversation("deploy the service");
    CHECK(r.interrupted);
    CHECK(starts.count() == 0);
  }
  SUBCASE("intervals are 0") {
    AgentOptions o = f.options();
    o.review.skill_nudge_interval = 0;
    auto agent = f.make_agent(o);
    f.script_tool_iterations(12);
    CHECK(agent->run_conversation("deploy the service").completed);
    CHECK(starts.count() == 0);
  }
  SUBCASE("background review is off") {
    AgentOptions o = f.options();
    o.review.enabled = false;
    auto agent = f.make_agent(o);
    f.script_tool_iterations(10);
    CHECK(agent->run_conversation("deploy the service").completed);
    CHECK(starts.count() == 0);
  }
}

TEST_CASE("the review's agent is refused every tool but memory and skills") {
  ReviewFixture f;
  testing::EventSignal review_done;
  f.script_tool_iterations(10);
  f.provider->tool_calls({{"step", "{}"}});
  f.provider->step([&](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    review_done.raise();
    ProviderResponse response;
    response.message = Message::assistant("Nothing to save.");
    response.message.finish_reason = "stop";
    return response;
  });
  auto agent = f.make_agent(f.options());
  CHECK(agent->run_conversation("deploy the service").completed);
  REQUIRE(review_done.wait());
  agent.reset();  // Waits for the review to wind down.

  CHECK(f.step_calls == 10);
  auto requests = f.provider->requests();
  REQUIRE(requests.size() == 13);
  const Message& refusal = requests[12].messages.back();
  CHECK(refusal.role == Role::kTool);
  CHECK(internal::contains(refusal.content, "Tool 'step' does not exist"));
  CHECK(f.reviews.values().empty());  // Nothing saved, nothing reported.
}

TEST_CASE("destroying an agent cancels its running review and returns") {
  ReviewFixture f;
  testing::EventSignal review_called;
  std::atomic<bool> saw_cancel{false};
  f.script_tool_iterations(10);
  f.provider->step(
      [&](const ProviderRequest&, const CallContext& context) -> Result<ProviderResponse> {
        review_called.raise();
        while (!context.cancel.cancelled())
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        saw_cancel = true;
        return Status::cancelled("cancelled");
      });
  auto agent = f.make_agent(f.options());
  CHECK(agent->run_conversation("deploy the service").completed);
  REQUIRE(review_called.wait());
  agent.reset();
  CHECK(saw_cancel);
  CHECK(f.reviews.values().empty());
}

TEST_CASE("a new turn cancels the review of the previous one") {
  ReviewFixture f;
  testing::EventSignal review_called;
  f.script_tool_iterations(10);
  f.provider->step(
      [&](const ProviderRequest&, const CallContext& context) -> Result<ProviderResponse> {
        review_called.raise();
        while (!context.cancel.cancelled())
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return Status::cancelled("cancelled");
      });
  auto agent = f.make_agent(f.options());
  CHECK(agent->run_conversation("deploy the service").completed);
  REQUIRE(review_called.wait());
  f.provider->text("Next answer.");
  ConversationResult r = agent->run_conversation("next question");
  CHECK(r.final_response == "Next answer.");
  CHECK(f.provider->remaining() == 0);
}
