// What hermes writes for itself (the session database, memories, skills, the allow-list,
// caches, OAuth tokens) is readable by the user alone, even under a umask of 0: files
// 0600, directories 0700, the home included.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/atomic_file.hpp"
#include "hermes/hermes.hpp"
#include "safety/approval.hpp"
#include "support/scoped_env.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScopedUmask;
using hermes::testing::TempDir;

namespace {

// The permission bits of `path`, or -1 when it does not exist.
int mode_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return -1;
  return static_cast<int>(info.st_mode & 0777);
}

std::string skill_md(const std::string& name) {
  return "---\nname: " + name + "\ndescription: A skill written by the model\n---\nSteps.\n";
}

}  // namespace

TEST_CASE("an agent's session database, memories and skills are private under umask 0") {
  TempDir base;
  const std::string home = base.file("fresh/home");
  ScopedUmask open_umask(0);
  auto provider = std::make_shared<testing::ScriptedProvider>();
  provider->tool_calls(
      {{"memory", R"({"action": "add", "content": "The user deploys on Fridays"})"},
       {"skill_manage", R"({"action": "create", "name": "deploy", "content": )" +
                            Json(skill_md("deploy")).dump() + "}"}});
  provider->text("Noted.");
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = provider;
  o.home = home;
  o.review.enabled = false;
  o.compression.context_length = 64000;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("Remember how I deploy.");
  REQUIRE(r.completed);
  CHECK(mode_of(base.file("fresh")) == 0700);
  CHECK(mode_of(home) == 0700);
  CHECK(mode_of(home + "/state.db") == 0600);
  CHECK(mode_of(home + "/memories") == 0700);
  CHECK(mode_of(home + "/memories/MEMORY.md") == 0600);
  CHECK(mode_of(home + "/memories/MEMORY.md.lock") == 0600);
  CHECK(mode_of(home + "/skills") == 0700);
  CHECK(mode_of(home + "/skills/deploy") == 0700);
  CHECK(mode_of(home + "/skills/deploy/SKILL.md") == 0600);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(home)) {
    CAPTURE(entry.path().string());
    CHECK((mode_of(entry.path().string()) & 077) == 0);
  }
}

TEST_CASE("an existing home open to others is closed when an agent starts") {
  TempDir home;
  ::chmod(home.path().c_str(), 0755);
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = std::make_shared<testing::ScriptedProvider>();
  o.home = home.path();
  o.persistence.enabled = false;
  REQUIRE(Agent::create(o).ok());
  CHECK(mode_of(home.path()) == 0700);
}

TEST_CASE("the allow-list and other state files are private under umask 0") {
  TempDir base;
  const std::string home = base.file("home");
  ScopedUmask open_umask(0);
  REQUIRE(internal::add_command_approval(home, {"recursive delete", "rm -r build"}).ok());
  CHECK(mode_of(home) == 0700);
  CHECK(mode_of(home + "/command_allowlist.json") == 0600);

  REQUIRE(internal::write_file_atomically(home + "/cache/deep/state.json", "{}").ok());
  CHECK(mode_of(home + "/cache") == 0700);
  CHECK(mode_of(home + "/cache/deep/state.json") == 0600);
  // Rewriting a file left open to others closes it; the owner's bits stay.
  ::chmod((home + "/cache/deep/state.json").c_str(), 0754);
  REQUIRE(internal::write_file_atomically(home + "/cache/deep/state.json", "{}").ok());
  CHECK(mode_of(home + "/cache/deep/state.json") == 0700);
}

TEST_CASE("files the model writes in the user's project keep ordinary permissions") {
  TempDir project;
  ScopedUmask usual(022);
  REQUIRE(internal::write_file_atomically(project.file("src/app.py"), "print(1)\n",
                                          internal::FileOwner::kUser)
              .ok());
  CHECK(mode_of(project.file("src/app.py")) == 0644);
  CHECK(mode_of(project.file("src")) == 0755);
  ::chmod(project.file("src/app.py").c_str(), 0775);
  REQUIRE(internal::write_file_atomically(project.file("src/app.py"), "print(2)\n",
                                          internal::FileOwner::kUser)
              .ok());
  CHECK(mode_of(project.file("src/app.py")) == 0775);
}
