// Skills: discovery, the prompt index, skills_list / skill_view / skill_manage and slash
// commands, over a temporary hermes home.
#include "hermes/skills.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "common/atomic_file.hpp"
#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::TempDir;
using hermes::testing::ToolHarness;

namespace fs = std::filesystem;

namespace {

std::string skill_md(const std::string& name, const std::string& description,
                     const std::string& extra = "") {
  return "---\nname: " + name + "\ndescription: " + description + "\n" + extra + "---\n# " + name +
         "\nDo the thing.\n";
}

// A home with local skills in and out of categories, an unusable one, platform- and
// tool-conditional ones, and an external root that repeats a local name.
struct SkillsHome {
  ToolHarness h;
  TempDir external;
  SkillsOptions options;
  std::vector<ToolSpec> tools;

  SkillsHome() {
    const std::string root = h.home.path() + "/skills";
    testing::put_file(root + "/git-helper/SKILL.md",
                      skill_md("git-helper", "Helps with git history"));
    testing::put_file(root + "/devops/DESCRIPTION.md", "---\ndescription: Shipping things\n---\n");
    testing::put_file(
        root + "/devops/deploy-staging/SKILL.md",
        skill_md("deploy-staging", "Deploy to staging from ${HERMES_SKILL_DIR}",
                 "metadata:\n  hermes:\n    requires_tools: [terminal]\n    tags: [ops]\n"));
    testing::put_file(root + "/devops/deploy-staging/references/notes.md", "Staging notes.");
    testing::put_file(root + "/devops/deploy-staging/scripts/run.sh", "#!/bin/sh\necho deploy\n");
    testing::put_file(root + "/broken/SKILL.md", "---\nname: [broken\n---\nbody\n");
    testing::put_file(root + "/mac-only/SKILL.md",
                      skill_md("mac-only", "Only on macOS", "platforms: [macos]\n"));
    testing::put_file(
        root + "/browse-lite/SKILL.md",
        skill_md("browse-lite", "Browse without a browser",
                 "metadata:\n  hermes:\n    fallback_for_tools: [browser_navigate]\n"));
    testing::put_file(root + "/.git/hidden/SKILL.md", skill_md("hidden", "Never listed"));
    testing::put_file(external.path() + "/git-helper/SKILL.md",
                      skill_md("git-helper", "The external one"));
    testing::put_file(external.path() + "/team-thing/SKILL.md",
                      skill_md("team-thing", "A team skill"));
    options.external_dirs = {external.path()};
    tools = internal::skills_tools(options);
  }

  Json call(const std::string& tool, const Json& args) {
    return h.call_json(hermes::testing::spec_named(tools, tool), args);
  }
  std::string home() const { return h.home.path(); }
};

}  // namespace

TEST_CASE("the index groups usable skills by category and hides the unusable ones") {
  SkillsHome s;
  const std::string index = build_skills_index(s.home(), s.options);
  CHECK(index.rfind("## Skills (mandatory)\n", 0) == 0);
  CHECK(testing::has_text(index, "<available_skills>\n"));
  CHECK(testing::has_text(index,
                          "  devops: Shipping things\n    - deploy-staging: Deploy to staging from "
                          "${HERMES_SKILL_DIR}\n"));
  CHECK(testing::has_text(index, "  git-helper:\n    - git-helper: Helps with git history\n"));
  CHECK(testing::has_text(index, "    - team-thing: A team skill\n"));
  CHECK_FALSE(testing::has_text(index, "The external one"));  // The local skill wins.
  CHECK_FALSE(testing::has_text(index, "broken"));
  CHECK_FALSE(testing::has_text(index, "hidden"));
#if !defined(__APPLE__)
  CHECK_FALSE(testing::has_text(index, "mac-only"));
#endif
  CHECK(testing::has_text(
      index, "</available_skills>\n\nIf none match, proceed normally without loading a skill."));
}

TEST_CASE("tool conditions hide skills whose tools are missing and fallbacks whose tool exists") {
  SkillsHome s;
  const std::string without_terminal =
      build_skills_index(s.home(), s.options, {"read_file"}, {"file"});
  CHECK_FALSE(testing::has_text(without_terminal, "deploy-staging"));
  CHECK(testing::has_text(without_terminal, "browse-lite"));
  const std::string with_browser =
      build_skills_index(s.home(), s.options, {"terminal", "browser_navigate"}, {});
  CHECK(testing::has_text(with_browser, "deploy-staging"));
  CHECK_FALSE(testing::has_text(with_browser, "browse-lite"));
}

TEST_CASE("the index is cached, on disk too, and rebuilt when a skill changes") {
  SkillsHome s;
  SkillsOptions disabled = s.options;
  disabled.disabled = {"team-thing"};
  const std::string first = build_skills_index(s.home(), disabled);
  CHECK_FALSE(testing::has_text(first, "team-thing"));
  CHECK(fs::exists(s.home() + "/.skills_index_cache.json"));
  CHECK(build_skills_index(s.home(), disabled) == first);
  testing::put_file(
      s.home() + "/skills/git-helper/SKILL.md",
      skill_md("git-helper", "Rewritten description that is long enough to be cut off here now"));
  const std::string second = build_skills_index(s.home(), disabled);
  CHECK(testing::has_text(
      second, "    - git-helper: Rewritten description that is long enough to be cut off h...\n"));
}

TEST_CASE("an empty home has no skills section at all") {
  TempDir home;
  CHECK(build_skills_index(home.path(), {}).empty());
}

TEST_CASE("skills_list lists names and descriptions, optionally of one category") {
  SkillsHome s;
  Json all = s.call("skills_list", Json::object());
  CHECK(all["success"] == true);
  CHECK(all["count"] == all["skills"].size());
  Json devops = s.call("skills_list", {{"category", "devops"}});
  REQUIRE(devops["skills"].size() == 1);
  CHECK(devops["skills"][0] == Json{{"name", "deploy-staging"},
                                    {"description", "Deploy to staging from ${HERMES_SKILL_DIR}"},
                                    {"category", "devops"}});
}

TEST_CASE("skill_view loads the full skill with its directory substituted and its files listed") {
  SkillsHome s;
  Json v = s.call("skill_view", {{"name", "deploy-staging"}});
  CHECK(v["success"] == true);
  const std::string dir = v["skill_dir"];
  CHECK(testing::has_text(v["content"], "description: Deploy to staging from " + dir));
  CHECK(v["linked_files"] ==
        Json{{"references", {"references/notes.md"}}, {"scripts", {"scripts/run.sh"}}});
  CHECK(v["tags"] == Json{"ops"});
  Json file =
      s.call("skill_view", {{"name", "deploy-staging"}, {"file_path", "references/notes.md"}});
  CHECK(file["content"] == "Staging notes.");
}

TEST_CASE("skill_view refuses paths that leave the skill and unknown skills") {
  SkillsHome s;
  CHECK(s.call("skill_view",
               {{"name", "deploy-staging"}, {"file_path", "../git-helper/SKILL.md"}})["error"] ==
        "file_path must not contain '..'");
  CHECK(s.call("skill_view",
               {{"name", "deploy-staging"}, {"file_path", "/etc/passwd"}})["success"] == false);
  CHECK(s.call("skill_view", {{"name", "nope"}})["error"] ==
        "Skill 'nope' not found. Use skills_list to see the available skills.");
  Json broken = s.call("skill_view", {{"name", "broken"}});
  CHECK(broken["success"] == true);
  CHECK(testing::has_text(broken["frontmatter_error"], "YAML frontmatter parse error"));
}

TEST_CASE("skill_manage create validates the name and the frontmatter") {
  SkillsHome s;
  CHECK(testing::has_text(s.call("skill_manage", {{"action", "create"},
                                                  {"name", "Bad Name"},
                                                  {"content", skill_md("x", "y")}})["error"],
                          "Invalid skill name 'Bad Name'"));
  CHECK(s.call("skill_manage", {{"action", "create"},
                                {"name", "new-one"},
                                {"content", "---\nname: new-one\n---\nbody"}})["error"] ==
        "Frontmatter must include a 'description' field");
  CHECK(s.call("skill_manage",
               {{"action", "create"},
                {"name", "new-one"},
                {"content", "---\nname: a\ndescription: b\n---\n  \n"}})["success"] == false);
  CHECK(testing::has_text(
      s.call("skill_manage", {{"action", "create"},
                              {"name", "git-helper"},
                              {"content", skill_md("git-helper", "again")}})["error"],
      "already exists"));
  const std::string big = skill_md("big", "Big") + std::string(100001, 'x');
  CHECK(testing::has_text(
      s.call("skill_manage", {{"action", "create"}, {"name", "big"}, {"content", big}})["error"],
      "limit: 100,000"));
  Json made = s.call("skill_manage", {{"action", "create"},
                                      {"name", "new-one"},
                                      {"category", "misc"},
                                      {"content", skill_md("new-one", "Fresh")}});
  CHECK(made["success"] == true);
  CHECK(made["path"] == s.home() + "/skills/misc/new-one/SKILL.md");
  CHECK(testing::has_text(build_skills_index(s.home(), s.options),
                          "  misc:\n    - new-one: Fresh\n"));
}

TEST_CASE("skill_manage patch edits fuzzily and keeps SKILL.md valid") {
  SkillsHome s;
  Json ok = s.call("skill_manage", {{"action", "patch"},
                                    {"name", "git-helper"},
                                    {"old_string", "Do the thing."},
                                    {"new_string", "Do the better thing."}});
  CHECK(ok["success"] == true);
  CHECK(testing::has_text(*internal::read_whole_file(s.home() + "/skills/git-helper/SKILL.md"),
                          "Do the better thing."));
  Json again = s.call("skill_manage", {{"action", "patch"},
                                       {"name", "git-helper"},
                                       {"old_string", "Do the thing."},
                                       {"new_string", "Do the better thing."}});
  CHECK(again["success"] == true);  // Already applied.
  Json invalid = s.call("skill_manage", {{"action", "patch"},
                                         {"name", "git-helper"},
                                         {"old_string", "description: Helps with git history\n"},
                                         {"new_string", ""}});
  CHECK(testing::has_text(invalid["error"], "would be invalid"));
  Json missing = s.call("skill_manage", {{"action", "patch"},
                                         {"name", "git-helper"},
                                         {"old_string", "no such text anywhere"},
                                         {"new_string", "x"}});
  CHECK(testing::has_text(missing["error"], "Could not find a match"));
}

TEST_CASE("external skills are read-only") {
  SkillsHome s;
  CHECK(testing::has_text(
      s.call("skill_manage", {{"action", "edit"},
                              {"name", "team-thing"},
                              {"content", skill_md("team-thing", "Mine now")}})["error"],
      "read-only"));
  CHECK(s.call("skill_manage", {{"action", "delete"}, {"name", "team-thing"}})["success"] == false);
}

TEST_CASE("supporting files must stay under the known subdirectories of the skill") {
  SkillsHome s;
  auto write_file = [&](const std::string& path, const std::string& content = "x") {
    return s.call("skill_manage", {{"action", "write_file"},
                                   {"name", "git-helper"},
                                   {"file_path", path},
                                   {"file_content", content}});
  };
  CHECK(write_file("notes.md")["error"] ==
        "file_path must start with references/, templates/, scripts/ or assets/");
  CHECK(write_file("references/../../escape.md")["error"] == "file_path must not contain '..'");
  CHECK(write_file("/tmp/abs.md")["error"] == "file_path must be relative to the skill directory");
  CHECK(write_file("references/")["error"] == "file_path must include a file name");
  CHECK(testing::has_text(write_file("assets/big.bin", std::string(1048577, 'b'))["error"],
                          "limit is 1,048,576"));
  CHECK(write_file("references/api.md", "API notes")["success"] == true);
  CHECK(s.call("skill_manage", {{"action", "remove_file"},
                                {"name", "git-helper"},
                                {"file_path", "references/api.md"}})["success"] == true);
  CHECK(s.call("skill_manage", {{"action", "remove_file"},
                                {"name", "git-helper"},
                                {"file_path", "references/api.md"}})["success"] == false);
}

TEST_CASE("delete removes a local skill but never follows a symlink") {
  SkillsHome s;
  const std::string target = s.external.path() + "/team-thing";
  fs::create_directory_symlink(target, s.home() + "/skills/linked");
  CHECK(
      testing::has_text(s.call("skill_manage", {{"action", "delete"}, {"name", "linked"}})["error"],
                        "symbolic link"));
  CHECK(fs::exists(target + "/SKILL.md"));
  CHECK(s.call("skill_manage", {{"action", "delete"}, {"name", "git-helper"}})["success"] == true);
  CHECK_FALSE(fs::exists(s.home() + "/skills/git-helper"));
}

TEST_CASE("skill_manage rejects unknown actions and missing names") {
  SkillsHome s;
  CHECK(testing::has_text(s.call("skill_manage", {{"action", "explode"}, {"name", "x"}})["error"],
                          "Unknown action 'explode'"));
  CHECK(s.call("skill_manage", {{"action", "edit"}})["error"] == "edit requires 'name'.");
  CHECK(testing::has_text(
      s.call("skill_manage", {{"action", "edit"}, {"name", "ghost"}, {"content", "x"}})["error"],
      "not found"));
}

TEST_CASE("slash command slugs are lower-case with single dashes") {
  CHECK(skill_command_slug("Deploy Staging!") == "deploy-staging");
  CHECK(skill_command_slug("--a  b--") == "a-b");
  CHECK(skill_command_slug("***") == "");
}

TEST_CASE("a slash command becomes a user message carrying the skill") {
  SkillsHome s;
  auto commands = list_skill_commands(s.home(), s.options);
  CHECK(std::any_of(commands.begin(), commands.end(),
                    [](const SkillCommand& c) { return c.command == "/deploy-staging"; }));
  auto msg = build_skill_invocation_message(s.home(), s.options, "/deploy_staging", "ship build 42",
                                            "sess-1");
  REQUIRE(msg.ok());
  CHECK(msg->rfind("[IMPORTANT: The user has invoked the \"deploy-staging\" skill, indicating they "
                   "want you to follow its "
                   "instructions. The full skill content is loaded below.]\n\n# deploy-staging\nDo "
                   "the thing.\n",
                   0) == 0);
  CHECK(testing::has_text(*msg, "[Skill directory: "));
  CHECK(testing::has_text(*msg, "- references/notes.md\n- scripts/run.sh\n"));
  CHECK(msg->size() > 0);
  CHECK(testing::has_text(
      *msg,
      "The user has provided the following instruction alongside the skill invocation: "
      "ship build 42"));
  CHECK(build_skill_invocation_message(s.home(), s.options, "/nope", "").status().code() ==
        StatusCode::kNotFound);
}
