// An external MemoryProvider around the agent's turns and sessions.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"
#include "support/scripted_agent.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

struct RecordingMemory : MemoryProvider {
  std::vector<std::string> events;
  std::vector<MemorySessionSwitch> switches;

  std::string name() const override { return "recording"; }
  void initialize(const std::string& session_id, const std::string&) override {
    events.push_back("initialize:" + session_id);
  }
  std::string system_prompt_block() override { return "External memory is connected."; }
  std::string prefetch(const std::string& query, const std::string&) override {
    events.push_back("prefetch:" + query);
    return "Recalled: the user drinks tea.";
  }
  void sync_turn(const std::string& user, const std::string& assistant, const std::string&,
                 const std::vector<Message>& messages) override {
    events.push_back("sync_turn:" + user + "->" + assistant + ":" +
                     std::to_string(messages.size()));
  }
  void on_session_switch(const MemorySessionSwitch& change) override { switches.push_back(change); }
  void on_memory_write(const std::string& action, const std::string& target,
                       const std::string& content) override {
    events.push_back("write:" + action + ":" + target + ":" + content);
  }
  void on_session_end(const std::vector<Message>& messages) override {
    events.push_back("session_end:" + std::to_string(messages.size()));
  }
  std::size_t discarded = 0;
  std::string on_compaction(const std::vector<Message>& messages) override {
    discarded = messages.size();
    return "Kept: the user likes frigates.";
  }
};

struct ThrowingMemory : MemoryProvider {
  std::string name() const override { throw std::runtime_error("no name either"); }
  void initialize(const std::string&, const std::string&) override {
    throw std::runtime_error("x");
  }
  std::string system_prompt_block() override { throw std::runtime_error("x"); }
  std::string prefetch(const std::string&, const std::string&) override {
    throw std::runtime_error("x");
  }
  void sync_turn(const std::string&, const std::string&, const std::string&,
                 const std::vector<Message>&) override {
    throw 42;
  }
  void on_session_switch(const MemorySessionSwitch&) override { throw std::runtime_error("x"); }
  void on_session_end(const std::vector<Message>&) override { throw std::runtime_error("x"); }
  void shutdown() override { throw std::runtime_error("x"); }
};

struct MemoryProviderFixture : hermes::testing::ScriptedAgentFixture {
  MemoryProviderFixture() {
    BuiltinToolOptions builtins;
    builtins.toolsets = {"memory"};
    REQUIRE(register_builtin_tools(*tools, builtins).ok());
  }

  std::unique_ptr<Agent> make_agent(std::shared_ptr<MemoryProvider> memory, bool persist = false) {
    AgentOptions o = options();
    o.persistence.enabled = persist;
    o.memory_provider = std::move(memory);
    return agent(o);
  }
};

}  // namespace

TEST_CASE("recalled memory reaches the request's user message but not the transcript") {
  MemoryProviderFixture f;
  auto memory = std::make_shared<RecordingMemory>();
  f.provider->text("Tea it is.");
  auto agent = f.make_agent(memory);

  ConversationResult r = agent->run_conversation("what should I drink?");
  CHECK(r.completed);
  const ProviderRequest request = f.provider->requests().at(0);
  CHECK(request.messages.at(1).content == "what should I drink?\n\nRecalled: the user drinks tea.");
  CHECK(r.messages.at(0).content == "what should I drink?");
  CHECK(agent->history().at(0).content == "what should I drink?");
  // The provider's block is part of the session's system prompt.
  CHECK(agent->system_prompt().find("External memory is connected.") != std::string::npos);
}

TEST_CASE("sync_turn follows each completed turn and never an interrupted one") {
  MemoryProviderFixture f;
  auto memory = std::make_shared<RecordingMemory>();
  auto agent = f.make_agent(memory);
  const std::string first_session = agent->session_id();
  f.provider->text("One.");
  f.provider->text("Two.");
  CHECK(agent->run_conversation("first").completed);
  CHECK(agent->run_conversation("second").completed);
  agent->interrupt("stop");  // Arrives before the next turn: that turn is interrupted.
  f.provider->text("Three.");
  CHECK(agent->run_conversation("third").interrupted);

  CHECK(memory->events == std::vector<std::string>{"initialize:" + first_session, "prefetch:first",
                                                   "sync_turn:first->One.:2", "prefetch:second",
                                                   "sync_turn:second->Two.:4", "prefetch:third"});

  REQUIRE(agent->new_session().ok());
  REQUIRE(memory->switches.size() == 1);
  CHECK(memory->switches[0].new_session_id == agent->session_id());
  CHECK(memory->switches[0].parent_session_id == first_session);
  CHECK(memory->switches[0].reset);
  CHECK(memory->events.back().rfind("session_end:", 0) == 0);
}

TEST_CASE("a successful memory tool write is passed on to the memory provider") {
  MemoryProviderFixture f;
  auto memory = std::make_shared<RecordingMemory>();
  f.provider->tool_calls({{"memory", R"({"action":"add","content":"Project uses tabs."})"}});
  f.provider->tool_calls({{"memory", R"({"action":"remove","old_text":"no such entry"})"}});
  f.provider->text("Saved.");
  auto agent = f.make_agent(memory);
  CHECK(agent->run_conversation("remember tabs").completed);
  int writes = 0;
  for (const auto& e : memory->events) writes += e.rfind("write:", 0) == 0;
  CHECK(writes == 1);
  CHECK(std::find(memory->events.begin(), memory->events.end(),
                  "write:add:memory:Project uses tabs.") != memory->events.end());
}

TEST_CASE("a memory provider that throws everywhere does not fail a turn") {
  MemoryProviderFixture f;
  f.provider->text("Still answering.");
  f.provider->text("Again.");
  auto agent = f.make_agent(std::make_shared<ThrowingMemory>());
  ConversationResult r = agent->run_conversation("hello");
  CHECK(r.completed);
  CHECK(r.final_response == "Still answering.");
  CHECK(f.provider->requests().at(0).messages.at(1).content == "hello");
  CHECK(agent->new_session().ok());
  CHECK(agent->run_conversation("hello again").completed);
}

TEST_CASE(
    "a compaction shows the provider what goes, keeps its notes, and announces the child session") {
  MemoryProviderFixture f;
  auto memory = std::make_shared<RecordingMemory>();
  std::vector<Message> history;
  for (int i = 0; i < 20; ++i) {
    history.push_back(Message::user("Question " + std::to_string(i) + " " + std::string(500, 'q')));
    history.push_back(
        Message::assistant("Answer " + std::to_string(i) + " " + std::string(500, 'a')));
  }
  f.provider->text("ok");
  f.provider->text("## Goal\nAnswer questions.\n## Critical Context\nShips.");  // The summary.
  auto agent = f.make_agent(memory, /*persist=*/true);
  REQUIRE(agent->run_conversation("hello", std::nullopt, history).completed);
  const std::string before = agent->session_id();

  auto result = agent->compress();
  REQUIRE(result.ok());
  REQUIRE(result->compacted);
  CHECK(memory->discarded > 0);
  CHECK(memory->discarded < result->messages_before);
  auto kept = agent->history();
  CHECK(std::any_of(kept.begin(), kept.end(), [](const Message& m) {
    return m.content.find("Kept: the user likes frigates.") != std::string::npos;
  }));
  REQUIRE(memory->switches.size() == 1);
  CHECK(memory->switches[0].new_session_id == agent->session_id());
  CHECK(memory->switches[0].parent_session_id == before);
  CHECK_FALSE(memory->switches[0].reset);
}
