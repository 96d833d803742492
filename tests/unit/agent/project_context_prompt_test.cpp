// The agent loads the project's context files from the directory the host names, once per
// session, so the system prompt stays byte for byte the same across turns.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/agent.hpp"
#include "hermes/session_store.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;
using hermes::testing::TempDir;

namespace {

AgentOptions options(const TempDir& home, std::shared_ptr<ScriptedProvider> provider) {
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = std::move(provider);
  o.home = home.path();
  o.persistence.enabled = false;
  o.review.enabled = false;
  return o;
}

}  // namespace

TEST_CASE("the agent loads the context files of the directory the host names") {
  TempDir home;
  TempDir project;
  std::ofstream(project.file("AGENTS.md")) << "Use four spaces.";
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("One.");
  provider->text("Two.");
  AgentOptions o = options(home, provider);
  o.context_dir = project.path();
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  const std::string first = (*agent)->system_prompt();
  CHECK(first.find("# Project Context") != std::string::npos);
  CHECK(first.find("## AGENTS.md\n\nUse four spaces.") != std::string::npos);

  // An edit mid-session reaches the next session, not this one's cached prompt.
  std::ofstream(project.file("AGENTS.md")) << "Use tabs.";
  REQUIRE((*agent)->run_conversation("again").completed);
  CHECK((*agent)->system_prompt() == first);
}

TEST_CASE("an agent without a context directory loads no project files") {
  TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  auto agent = Agent::create(options(home, provider));
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  CHECK((*agent)->system_prompt().find("# Project Context") == std::string::npos);
}

TEST_CASE("a context directory that does not exist is not an error") {
  TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  AgentOptions o = options(home, provider);
  o.context_dir = home.file("no/such/dir");
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  CHECK((*agent)->run_conversation("hello").completed);
  CHECK((*agent)->system_prompt().find("# Project Context") == std::string::npos);
}

TEST_CASE("a context file cut to fit the window is reported as a warning") {
  TempDir home;
  TempDir project;
  // Over the cap of any window this test's model may be given (6% of 256K tokens).
  std::ofstream(project.file("AGENTS.md")) << std::string(80'000, 'x');
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  AgentOptions o = options(home, provider);
  o.context_dir = project.path();
  std::vector<std::string> warnings;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view message) {
    if (kind == "warning") warnings.emplace_back(message);
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind("Context file AGENTS.md truncated: 80014 characters", 0) == 0);
}

TEST_CASE("a continued session's prompt keeps the date its lineage began on") {
  TempDir home;
  auto store = open_sqlite_store(home.file("state.db"));
  REQUIRE(store.ok());
  SessionInfo root;
  root.id = "root";
  root.started_at = 47'217'600;  // 1971-07-01 12:00 UTC
  REQUIRE((*store)->create_session(root).ok());
  REQUIRE((*store)->end_session("root", "compression").ok());
  SessionInfo child;
  child.id = "child";
  child.parent_session_id = "root";
  REQUIRE((*store)->create_session(child).ok());

  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  AgentOptions o = options(home, provider);
  o.persistence.store = *store;
  o.persistence.enabled = true;
  o.persistence.session_id = "child";
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  CHECK((*agent)->system_prompt().find("1971 (") != std::string::npos);
}
