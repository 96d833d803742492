// The agent loads the project's context files from the directory the host names, once per
// session, so the system prompt stays byte for byte the same across turns.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <string>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;
using hermes::testing::TempDir;

namespace {

AgentOptions options(const TempDir& home, std::shared_ptr<ScriptedProvider> provider) {
  AgentOptions o;
  o.model = "scripted-model";
  o.provider_instance = std::move(provider);
  o.home = home.path();
  o.persist_sessions = false;
  o.background_review = false;
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
