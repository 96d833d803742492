// The memory and skills tools driven through the real loop: a scripted model calls them
// over HTTP, the agent runs them against a hermes home on disk, and the results travel
// back to the model in the next request.
#include <doctest/doctest.h>

#include <filesystem>

#include "integration/tool_loop.hpp"

using namespace hermes;
using namespace hermes::testing;
namespace fs = std::filesystem;

namespace {

MockToolCall memory(const std::string& id, const Json& args) {
  return tool_call(id, "memory", args);
}

MockToolCall skill_manage(const std::string& id, const Json& args) {
  return tool_call(id, "skill_manage", args);
}

std::string memory_file(const ToolLoop& loop, const std::string& name) {
  return loop.home.file("memories/" + name);
}

// A skill planted in the home as a user would install it.
void install_skill(const ToolLoop& loop, const std::string& dir, const std::string& fixture) {
  fs::create_directories(loop.home.file("skills/" + dir));
  write_text(loop.home.file("skills/" + dir + "/SKILL.md"), tool_fixture(fixture));
}

bool lists_skill(const Json& listing, const std::string& name, const std::string& category) {
  for (const Json& s : listing["skills"]) {
    if (s["name"] == name && s["category"] == category) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("memory writes MEMORY.md and USER.md through the loop, and the next session sees them") {
  ToolLoop loop({"memory"});
  loop.run(
      {{memory("m1", {{"action", "add"}, {"content", "The project builds with CMake presets."}}),
        memory("m2", {{"action", "add"},
                      {"target", "user"},
                      {"content", "Prefers answers without preamble."}})},
       {memory("m3", {{"action", "replace"},
                      {"old_text", "CMake presets"},
                      {"content", "The project builds with cmake --preset ci."}}),
        memory("m4", {{"action", "add"}, {"content", "Tests use doctest."}})},
       {memory("m5", {{"action", "remove"}, {"old_text", "doctest"}})}});

  Json added = loop.sent("m1");
  CHECK(added["success"] == true);
  CHECK(added["target"] == "memory");
  CHECK(added["entry_count"] == 1);
  CHECK(loop.sent("m2")["target"] == "user");
  CHECK(loop.sent("m3")["success"] == true);
  CHECK(loop.sent("m4")["entry_count"] == 2);
  Json removed = loop.sent("m5");
  CHECK(removed["success"] == true);
  CHECK(removed["entry_count"] == 1);
  CHECK(read_text(memory_file(loop, "MEMORY.md")) == "The project builds with cmake --preset ci.");
  CHECK(read_text(memory_file(loop, "USER.md")) == "Prefers answers without preamble.");
  // The session's prompt was frozen before the writes: the provider's cache stays valid.
  CHECK(loop.sent_system_prompt().find("cmake --preset ci") == std::string::npos);

  auto next = Agent::create(loop.options);
  REQUIRE(next.ok());
  loop.server.enqueue(chat::text("Noted.", true));
  ConversationResult r = (*next)->run_conversation("Hello again.");
  REQUIRE_MESSAGE(r.completed, r.error);
  const std::string prompt = loop.sent_system_prompt();
  CHECK(prompt.find("The project builds with cmake --preset ci.") != std::string::npos);
  CHECK(prompt.find("Prefers answers without preamble.") != std::string::npos);
  CHECK(prompt.find("Tests use doctest.") == std::string::npos);
}

TEST_CASE("bad memory calls come back as errors the model reads, and nothing is written") {
  ToolLoop loop({"memory"});
  loop.run({{memory("no_content", {{"action", "add"}, {"target", "user"}}),
             memory("bad_target", {{"action", "add"}, {"target", "diary"}, {"content", "x"}}),
             memory("list_content", {{"action", "add"}, {"content", Json::array({"a", "b"})}}),
             memory("no_match",
                    {{"action", "replace"}, {"old_text", "nothing like this"}, {"content", "y"}}),
             memory("bad_ops", {{"operations", "add everything"}}),
             memory("number_target", {{"action", "add"}, {"target", 2}, {"content", "z"}})}});

  Json no_content = loop.sent("no_content");
  CHECK(is_error_result(no_content));
  CHECK(no_content["error"].get<std::string>().find("Content is required") != std::string::npos);
  Json bad_target = loop.sent("bad_target");
  CHECK(is_error_result(bad_target));
  CHECK(bad_target["error"].get<std::string>().find("diary") != std::string::npos);
  // A value of the wrong type is named as such, not taken for a missing or default one.
  CHECK(loop.sent("list_content")["error"] == "Argument 'content' must be a string, got array.");
  CHECK(loop.sent("number_target")["error"] == "Argument 'target' must be a string, got integer.");
  CHECK(is_error_result(loop.sent("no_match")));
  CHECK(is_error_result(loop.sent("bad_ops")));
  CHECK_FALSE(fs::exists(memory_file(loop, "MEMORY.md")));
  CHECK_FALSE(fs::exists(memory_file(loop, "USER.md")));
}

TEST_CASE("skill_manage creates and patches a skill that skills_list lists and skill_view loads") {
  ToolLoop loop({"skills"});
  const std::string hosts = "staging-1.internal\nstaging-2.internal\n";
  loop.run({{skill_manage("create", {{"action", "create"},
                                     {"name", "deploy-staging"},
                                     {"category", "devops"},
                                     {"content", tool_fixture("deploy_staging_SKILL.md")}})},
            {tool_call("list", "skills_list", Json::object()),
             skill_manage("patch", {{"action", "patch"},
                                    {"name", "deploy-staging"},
                                    {"old_string", "3. Run the smoke tests."},
                                    {"new_string", "3. Run the smoke tests twice."}}),
             skill_manage("hosts", {{"action", "write_file"},
                                    {"name", "deploy-staging"},
                                    {"file_path", "references/hosts.md"},
                                    {"file_content", hosts}})},
            {tool_call("view", "skill_view", {{"name", "deploy-staging"}}),
             tool_call("view_hosts", "skill_view",
                       {{"name", "deploy-staging"}, {"file_path", "references/hosts.md"}})}});

  const std::string skill_md = loop.home.file("skills/devops/deploy-staging/SKILL.md");
  Json created = loop.sent("create");
  CHECK(created["success"] == true);
  CHECK(fs::equivalent(created["path"].get<std::string>(), skill_md));
  CHECK(lists_skill(loop.sent("list"), "deploy-staging", "devops"));
  CHECK(loop.sent("patch")["success"] == true);
  CHECK(loop.sent("hosts")["success"] == true);
  CHECK(read_text(skill_md).find("3. Run the smoke tests twice.") != std::string::npos);
  CHECK(read_text(loop.home.file("skills/devops/deploy-staging/references/hosts.md")) == hosts);

  Json view = loop.sent("view");
  CHECK(view["success"] == true);
  CHECK(view["name"] == "deploy-staging");
  CHECK(view["content"].get<std::string>().find("smoke tests twice") != std::string::npos);
  CHECK(view["linked_files"]["references"] == Json::array({"references/hosts.md"}));
  CHECK(loop.sent("view_hosts")["content"] == hosts);

  // A new session's prompt indexes the skill the model wrote.
  auto next = Agent::create(loop.options);
  REQUIRE(next.ok());
  loop.server.enqueue(chat::text("Ready.", true));
  REQUIRE((*next)->run_conversation("Hi.").completed);
  CHECK(loop.sent_system_prompt().find("deploy-staging") != std::string::npos);
}

TEST_CASE("skill_manage rewrites a skill, removes its supporting file, then deletes it") {
  ToolLoop loop({"skills"});
  install_skill(loop, "release-notes", "release_notes_SKILL.md");
  const std::string dir = loop.home.file("skills/release-notes");
  fs::create_directories(dir + "/templates");
  write_text(dir + "/templates/notes.md", "# Notes\n");
  const std::string rewritten =
      "---\nname: release-notes\ndescription: Notes from the changelog.\n---\nCopy CHANGES.md.\n";
  loop.run({{skill_manage("edit",
                          {{"action", "edit"}, {"name", "release-notes"}, {"content", rewritten}})},
            {skill_manage("remove_file", {{"action", "remove_file"},
                                          {"name", "release-notes"},
                                          {"file_path", "templates/notes.md"}})},
            {tool_call("view", "skill_view", {{"name", "release-notes"}})},
            {skill_manage("delete", {{"action", "delete"}, {"name", "release-notes"}})},
            {tool_call("list", "skills_list", Json::object())}});

  CHECK(loop.sent("edit")["success"] == true);
  CHECK(loop.sent("remove_file")["success"] == true);
  Json view = loop.sent("view");
  CHECK(view["description"] == "Notes from the changelog.");
  CHECK(view["linked_files"].empty());
  CHECK(loop.sent("delete")["success"] == true);
  CHECK_FALSE(fs::exists(dir));
  CHECK(loop.sent("list")["count"] == 0);
}

TEST_CASE(
    "bad skill calls come back as errors the model reads, and nothing leaves the skills dir") {
  ToolLoop loop({"skills"});
  install_skill(loop, "release-notes", "release_notes_SKILL.md");
  const std::string original = read_text(loop.home.file("skills/release-notes/SKILL.md"));
  loop.run(
      {{skill_manage("escape_name", {{"action", "create"},
                                     {"name", "../escaped"},
                                     {"content", tool_fixture("deploy_staging_SKILL.md")}}),
        skill_manage("no_frontmatter",
                     {{"action", "create"}, {"name", "plain"}, {"content", "Just some text."}}),
        skill_manage("no_name", {{"action", "patch"}, {"old_string", "a"}, {"new_string", "b"}}),
        skill_manage("missing", {{"action", "patch"},
                                 {"name", "no-such-skill"},
                                 {"old_string", "a"},
                                 {"new_string", "b"}}),
        skill_manage("no_match", {{"action", "patch"},
                                  {"name", "release-notes"},
                                  {"old_string", "text that is not in the skill"},
                                  {"new_string", "b"}}),
        skill_manage("escape_file", {{"action", "write_file"},
                                     {"name", "release-notes"},
                                     {"file_path", "../../escaped.md"},
                                     {"file_content", "x"}}),
        tool_call("view_missing", "skill_view", {{"name", "no-such-skill"}}),
        tool_call("view_escape", "skill_view",
                  {{"name", "release-notes"}, {"file_path", "../../memories/MEMORY.md"}}),
        tool_call("view_number", "skill_view", {{"name", 42}}),
        tool_call("list_number", "skills_list", {{"category", 3}}),
        skill_manage(
            "content_object",
            {{"action", "create"}, {"name", "objective"}, {"content", {{"name", "objective"}}}})}});

  for (const char* id :
       {"escape_name", "no_frontmatter", "no_name", "missing", "no_match", "escape_file",
        "view_missing", "view_escape", "view_number", "list_number", "content_object"}) {
    CAPTURE(id);
    CHECK(is_error_result(loop.sent(id)));
  }
  CHECK(loop.sent("missing")["error"].get<std::string>().find("no-such-skill") !=
        std::string::npos);
  CHECK(loop.sent("view_number")["error"] == "Argument 'name' must be a string, got integer.");
  CHECK(loop.sent("list_number")["error"] == "Argument 'category' must be a string, got integer.");
  CHECK(loop.sent("content_object")["error"] == "Argument 'content' must be a string, got object.");
  CHECK_FALSE(fs::exists(loop.home.file("escaped")));
  CHECK_FALSE(fs::exists(loop.home.file("escaped.md")));
  CHECK_FALSE(fs::exists(loop.home.file("skills/plain")));
  CHECK(read_text(loop.home.file("skills/release-notes/SKILL.md")) == original);
}

TEST_CASE("a skill invoked as a slash command reaches the model as the turn's user message") {
  ToolLoop loop({"skills"});
  install_skill(loop, "release-notes", "release_notes_SKILL.md");
  auto message = build_skill_invocation_message(loop.home.path(), loop.options.skills,
                                                "/release_notes", "for v2.1 only");
  REQUIRE_MESSAGE(message.ok(), message.status().to_string());
  loop.run({{tool_call("view", "skill_view", {{"name", "release-notes"}})}}, "Here are the notes.",
           *message);

  const Json user = loop.server.requests().front().json()["messages"][1];
  CHECK(user["role"] == "user");
  const std::string text = user["content"].get<std::string>();
  CHECK(text.find("\"release-notes\" skill") != std::string::npos);
  CHECK(text.find("group them by area") != std::string::npos);
  CHECK(text.find("for v2.1 only") != std::string::npos);
  CHECK(loop.sent("view")["name"] == "release-notes");
}
