// The file tools (read_file, write_file, patch, search_files) driven through the real
// loop: a scripted model calls them over HTTP and the agent runs them against a project
// directory on disk, with the SQLite store and the home on disk too.
#include <doctest/doctest.h>

#include <filesystem>

#include "integration/tool_loop.hpp"

using namespace hermes;
using namespace hermes::testing;
namespace fs = std::filesystem;

namespace {

// A file of the project, created with its directories.
void plant(const ToolLoop& loop, const std::string& relative, const std::string& text) {
  fs::create_directories(fs::path(loop.project.file(relative)).parent_path());
  write_text(loop.project.file(relative), text);
}

}  // namespace

TEST_CASE("write_file, read_file and patch change a project on disk through the loop") {
  ToolLoop loop({"file"});
  plant(loop, "notes/old.txt", "stale notes\n");
  const std::string greeter = tool_fixture("greeter.py");
  loop.run(
      {{tool_call("write", "write_file", {{"path", "src/greeter.py"}, {"content", greeter}})},
       {tool_call("read", "read_file", {{"path", "src/greeter.py"}})},
       {tool_call("replace", "patch",
                  {{"path", "src/greeter.py"},
                   {"old_string", "return \"hello \" + name"},
                   {"new_string", "return f\"hello {name}\""}})},
       {tool_call("v4a", "patch", {{"mode", "patch"}, {"patch", tool_fixture("farewell.v4a")}})}});

  Json written = loop.sent("write");
  CHECK(written["success"] == true);
  CHECK(written["created"] == true);
  CHECK(written["path"] == "src/greeter.py");
  CHECK(written["bytes_written"] == greeter.size());

  Json read = loop.sent("read");
  CHECK(text_contains(read["content"], "1|def greet(name):\n2|    return \"hello \" + name\n"));
  CHECK(read["total_lines"] == 6);
  CHECK(read["truncated"] == false);

  Json replaced = loop.sent("replace");
  CHECK(replaced["success"] == true);
  CHECK(replaced["replacements"] == 1);
  CHECK(text_contains(replaced["diff"], "-    return \"hello \" + name"));
  CHECK(text_contains(replaced["diff"], "+    return f\"hello {name}\""));

  Json patched = loop.sent("v4a");
  CHECK(patched["success"] == true);
  CHECK(patched["files"] == Json::array({"src/greeter.py", "src/farewell.py", "notes/old.txt"}));
  CHECK(read_text(loop.project.file("src/greeter.py")) ==
        "def greet(name):\n    return f\"hello {name}\"\n\n\ndef main():\n"
        "    print(greet(\"world\"))\n    print(farewell(\"world\"))\n");
  CHECK(read_text(loop.project.file("src/farewell.py")) ==
        "def farewell(name):\n    return \"goodbye \" + name\n");
  CHECK_FALSE(fs::exists(loop.project.file("notes/old.txt")));
}

TEST_CASE("search_files finds contents and file names in the project through the loop") {
  ToolLoop loop({"file"});
  plant(loop, "src/greeter.py", tool_fixture("greeter.py"));
  plant(loop, "src/farewell.py", "def farewell(name):\n    return \"goodbye \" + name\n");
  plant(loop, "docs/guide.md", "Call greet(name) to say hello.\n");
  plant(loop, ".git/config", "def hidden():\n");
  loop.run(
      {{tool_call("defs", "search_files", {{"pattern", "^def \\w+\\("}, {"file_glob", "*.py"}}),
        tool_call("docs", "search_files", {{"target", "files"}, {"pattern", "*.md"}}),
        tool_call("count", "search_files", {{"pattern", "name"}, {"output_mode", "count"}})}});

  Json defs = loop.sent("defs");
  std::vector<std::string> found;
  for (const Json& m : defs["matches"])
    found.push_back(m["path"].get<std::string>() + ":" + std::to_string(m["line"].get<int>()));
  CHECK(found ==
        std::vector<std::string>{"src/farewell.py:1", "src/greeter.py:1", "src/greeter.py:5"});
  CHECK(defs["truncated"] == false);
  CHECK(loop.sent("docs")["files"] == Json::array({"docs/guide.md"}));
  Json counts = loop.sent("count")["counts"];
  CHECK(counts["src/greeter.py"] == 2);
  CHECK(counts["src/farewell.py"] == 2);
  CHECK(counts["docs/guide.md"] == 1);
}

TEST_CASE(
    "bad file tool calls are errors the model reads, and nothing outside the root is touched") {
  ToolLoop loop({"file"});
  TempDir outside;
  const std::string secret = "the secret outside the project";
  write_text(outside.file("secret.txt"), secret);
  const std::string greeter = tool_fixture("greeter.py");
  plant(loop, "src/greeter.py", greeter);
  plant(loop, "notes/old.txt", "stale notes\n");
  const std::string up = "../" + fs::path(outside.path()).filename().string();
  loop.run(
      {{tool_call("read_up", "read_file", {{"path", up + "/secret.txt"}}),
        tool_call("read_abs", "read_file", {{"path", outside.file("secret.txt")}}),
        tool_call("read_number", "read_file", {{"path", 7}}),
        tool_call("write_abs", "write_file", {{"path", outside.file("new.txt")}, {"content", "x"}}),
        tool_call("write_no_content", "write_file", {{"path", "src/empty.py"}}),
        tool_call("patch_up", "patch",
                  {{"path", up + "/secret.txt"}, {"old_string", "secret"}, {"new_string", "x"}}),
        tool_call(
            "patch_no_match", "patch",
            {{"path", "src/greeter.py"}, {"old_string", "no such line"}, {"new_string", "x"}}),
        tool_call("patch_hunk", "patch",
                  {{"mode", "patch"}, {"patch", tool_fixture("broken_hunk.v4a")}}),
        tool_call("search_up", "search_files", {{"pattern", "secret"}, {"path", up}}),
        tool_call("search_regex", "search_files", {{"pattern", "(unclosed"}})}});

  for (const char* id : {"read_up", "read_abs", "read_number", "write_abs", "write_no_content",
                         "patch_up", "patch_no_match", "patch_hunk", "search_up", "search_regex"}) {
    CAPTURE(id);
    CHECK(is_error_result(loop.sent(id)));
    CHECK(loop.sent_text(id).find(secret) == std::string::npos);
  }
  CHECK(text_contains(loop.sent("read_up")["error"], "outside the directories"));
  CHECK(text_contains(loop.sent("write_no_content")["error"], "content"));
  CHECK(read_text(outside.file("secret.txt")) == secret);
  CHECK_FALSE(fs::exists(outside.file("new.txt")));
  CHECK_FALSE(fs::exists(loop.project.file("src/empty.py")));
  // The failing second file of the V4A patch keeps its first file as it was.
  CHECK(read_text(loop.project.file("src/greeter.py")) == greeter);
}
