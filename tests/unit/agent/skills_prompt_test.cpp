// The skills index and memory snapshot of the system prompt follow the agent's skills
// settings, memory limits and enabled toolsets.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

void write_skill(const std::string& root, const std::string& name, const std::string& extra = "") {
  std::filesystem::create_directories(root + "/" + name);
  std::ofstream(root + "/" + name + "/SKILL.md")
      << "---\nname: " << name << "\ndescription: The " << name << " procedure\n"
      << extra << "---\n# " << name << "\n\nDo it.\n";
}

bool lists(const std::string& prompt, const std::string& skill) {
  return prompt.find("- " + skill + ":") != std::string::npos;
}

}  // namespace

TEST_CASE("the system prompt's skills index honours the agent's skills settings and toolsets") {
  hermes::testing::TempDir home;
  hermes::testing::TempDir team;
  const std::string local = home.path() + "/skills";
  write_skill(local, "plain");
  write_skill(local, "retired");
  write_skill(local, "needs-memory", "metadata:\n  hermes:\n    requires_toolsets: [memory]\n");
  write_skill(local, "needs-terminal", "metadata:\n  hermes:\n    requires_toolsets: [terminal]\n");
  write_skill(local, "memory-fallback",
              "metadata:\n  hermes:\n    fallback_for_toolsets: [memory]\n");
  write_skill(team.path(), "team-deploy");

  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = provider;
  o.home = home.path();
  o.persistence.enabled = false;
  o.review.enabled = false;
  o.tool_use.enabled_toolsets = {"memory", "skills"};
  o.skills.external_dirs = {team.path()};
  o.skills.disabled = {"retired"};
  o.memory_limits.memory_chars = 100;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  const std::string prompt = (*agent)->system_prompt();

  CHECK(lists(prompt, "plain"));
  CHECK(lists(prompt, "team-deploy"));            // From the extra skills directory.
  CHECK_FALSE(lists(prompt, "retired"));          // Disabled.
  CHECK(lists(prompt, "needs-memory"));           // Its toolset is enabled...
  CHECK_FALSE(lists(prompt, "needs-terminal"));   // ...this one's is not,
  CHECK_FALSE(lists(prompt, "memory-fallback"));  // and the real memory tool is there.
}

TEST_CASE("the memory snapshot in the system prompt uses the configured memory limits") {
  hermes::testing::TempDir home;
  std::filesystem::create_directories(home.path() + "/memories");
  std::ofstream(home.path() + "/memories/MEMORY.md") << "The build uses ninja.";

  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("Hi.");
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = provider;
  o.home = home.path();
  o.persistence.enabled = false;
  o.review.enabled = false;
  o.tool_use.enabled_toolsets = {"memory"};
  o.memory_limits.memory_chars = 100;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello").completed);
  CHECK((*agent)->system_prompt().find("21/100 chars") != std::string::npos);
}
