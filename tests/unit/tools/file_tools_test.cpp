// read_file, write_file, patch and search_files over a temporary workspace root.
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

struct Workspace {
  ToolHarness h;
  TempDir root;
  std::vector<ToolSpec> tools;

  explicit Workspace(std::vector<std::string> allowed = {}) {
    FileToolOptions options;
    options.root = fs::canonical(root.path()).string();
    options.allowed_roots = std::move(allowed);
    tools = internal::file_tools(options, ApprovalOptions{});
  }
  std::string file(const std::string& name) const { return root.file(name); }
  const ToolSpec& tool(const std::string& name) const {
    return hermes::testing::spec_named(tools, name);
  }
  Json call(const std::string& name, const Json& args) { return h.call_json(tool(name), args); }
  Result<std::string> raw_call(const std::string& name, const Json& args) {
    return h.call(tool(name), args);
  }
};

}  // namespace

TEST_CASE("read_file numbers lines and pages through long files") {
  Workspace w;
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "line " + std::to_string(i) + "\n";
  testing::put_file(w.file("notes.txt"), text);
  Json page = w.call("read_file", {{"path", "notes.txt"}, {"offset", 3}, {"limit", 2}});
  CHECK(page["content"] == "3|line 3\n4|line 4\n");
  CHECK(page["total_lines"] == 10);
  CHECK(page["truncated"] == true);
  CHECK(page["hint"] == "Use offset=5 to continue reading (showing 3-4 of 10 lines)");
  Json all = w.call("read_file",
                    {{"path", "notes.txt"}, {"limit", "100"}});  // A numeric string is accepted.
  CHECK(all["truncated"] == false);
  CHECK_FALSE(all.contains("hint"));
}

TEST_CASE("read_file cuts very long lines and refuses pages over the size limit") {
  Workspace w;
  testing::put_file(w.file("wide.txt"), std::string(2500, 'w') + "\nshort\n");
  Json r = w.call("read_file", {{"path", "wide.txt"}});
  CHECK(testing::has_text(r["content"], std::string(2000, 'w') + "... [truncated]\n2|short"));
  std::string huge;
  for (int i = 0; i < 60; ++i) huge += std::string(1900, 'x') + "\n";
  testing::put_file(w.file("huge.txt"), huge);
  auto refused = w.raw_call("read_file", {{"path", "huge.txt"}});
  REQUIRE_FALSE(refused.ok());
  CHECK(testing::has_text(refused.status().message(), "Read fewer lines"));
}

TEST_CASE("read_file refuses paths that escape the root") {
  Workspace w;
  TempDir outside;
  testing::put_file(outside.file("secret.txt"), "top secret");
  fs::create_directory_symlink(outside.path(), w.file("link"));
  for (const std::string& bad :
       {std::string("../secret.txt"), outside.file("secret.txt"), std::string("link/secret.txt"),
        std::string("sub/../../secret.txt"), std::string("/etc/passwd")}) {
    auto r = w.raw_call("read_file", {{"path", bad}});
    CHECK_MESSAGE(r.status().code() == StatusCode::kPermissionDenied, bad);
    CHECK(testing::has_text(r.status().message(), "outside the directories"));
  }
}

TEST_CASE("read_file explains missing files, directories, devices and binaries") {
  Workspace w({"/dev"});
  testing::put_file(w.file("config.json"), "{}");
  CHECK(w.raw_call("read_file", {{"path", "confg.json"}}).status().message() ==
        "File not found: confg.json. Did you mean: config.json?");
  fs::create_directory(w.file("dir"));
  CHECK(testing::has_text(w.raw_call("read_file", {{"path", "dir"}}).status().message(),
                          "is a directory"));
  CHECK(testing::has_text(w.raw_call("read_file", {{"path", "/dev/zero"}}).status().message(),
                          "device or special file"));
  testing::put_file(w.file("image.png"),
                    std::string("\x89PNG\r\n\x1a\n", 8) + std::string(4000, '\0'));
  CHECK(w.raw_call("read_file", {{"path", "image.png"}}).status().message() ==
        "Binary file (PNG image data, 3.9 KB) \xE2\x80\x94 cannot display as text.");
  testing::put_file(w.file("blob.dat"), std::string("abc\0def", 7));
  CHECK(testing::has_text(w.raw_call("read_file", {{"path", "blob.dat"}}).status().message(),
                          "Binary file (binary data"));
}

TEST_CASE("read_file rejects wrong argument types and missing fields") {
  Workspace w;
  CHECK(w.raw_call("read_file", Json::object()).status().message() ==
        "Missing required argument 'path'.");
  CHECK(w.raw_call("read_file", {{"path", 7}}).status().message() ==
        "Argument 'path' must be a string, got integer.");
  CHECK(w.raw_call("read_file", {{"path", "x"}, {"offset", "soon"}}).status().message() ==
        "Argument 'offset' must be an integer, got string.");
}

TEST_CASE("read_file masks secrets and refuses environment files") {
  Workspace w;
  testing::put_file(w.file("app.cfg"), "token = ghp_1234567890abcdefghijklmnopqrst\n");
  CHECK(w.call("read_file", {{"path", "app.cfg"}})["content"] ==
        "1|token = \xC2\xAB"
        "redacted:ghp_\xE2\x80\xA6\xC2\xBB\n");
  testing::put_file(w.file(".env"), "API_KEY=abc\n");
  CHECK(testing::has_text(w.raw_call("read_file", {{"path", ".env"}}).status().message(),
                          "Read denied"));
}

TEST_CASE("repeating the same read gets a stub, then a block") {
  Workspace w;
  testing::put_file(w.file("a.txt"), "alpha\n");
  CHECK(w.call("read_file", {{"path", "a.txt"}})["content"] == "1|alpha\n");
  CHECK(w.call("read_file", {{"path", "a.txt"}})["unchanged"] == true);
  CHECK(w.call("read_file", {{"path", "a.txt"}}).contains("warning"));
  CHECK(testing::has_text(w.raw_call("read_file", {{"path", "a.txt"}}).status().message(),
                          "BLOCKED"));
  testing::put_file(w.file("b.txt"), "beta\n");
  CHECK(w.call("read_file", {{"path", "b.txt"}})["content"] ==
        "1|beta\n");  // Another call breaks the run.
}

TEST_CASE("write_file creates directories and keeps an existing file's line endings") {
  Workspace w;
  Json made = w.call("write_file", {{"path", "deep/dir/new.txt"}, {"content", "hello\n"}});
  CHECK(made["created"] == true);
  CHECK(testing::file_text(w.file("deep/dir/new.txt")) == "hello\n");
  testing::put_file(w.file("dos.txt"), "\xEF\xBB\xBFone\r\ntwo\r\n");
  w.call("read_file", {{"path", "dos.txt"}});
  Json r = w.call("write_file", {{"path", "dos.txt"}, {"content", "uno\ndos\n"}});
  CHECK_FALSE(r.contains("warning"));
  CHECK(testing::file_text(w.file("dos.txt")) == "\xEF\xBB\xBFuno\r\ndos\r\n");
}

TEST_CASE("write_file refuses line-numbered text, missing content and protected files") {
  Workspace w;
  CHECK(testing::has_text(
      w.raw_call("write_file", {{"path", "x.py"}, {"content", "1|import os\n2|print(os)\n3|\n"}})
          .status()
          .message(),
      "looks like read_file output"));
  CHECK(testing::has_text(w.raw_call("write_file", {{"path", "x.py"}}).status().message(),
                          "requires 'content'"));
  CHECK(w.raw_call("write_file", {{"path", "../escape.txt"}, {"content", "x"}}).status().code() ==
        StatusCode::kPermissionDenied);
  // With the root at the hermes home, its own database and credentials stay off limits.
  FileToolOptions home_root;
  home_root.root = fs::canonical(w.h.home.path()).string();
  auto tools = internal::file_tools(home_root, ApprovalOptions{});
  w.h.ctx.home = home_root.root;
  auto denied = w.h.call(hermes::testing::spec_named(tools, "write_file"),
                         {{"path", "state.db"}, {"content", "x"}});
  CHECK(denied.status().message() ==
        "Write denied: '" + home_root.root +
            "/state.db' is one of <hermes home>/state.db* (the session database).");
}

TEST_CASE("overwriting a file never read, or changed since, carries a warning") {
  Workspace w;
  testing::put_file(w.file("old.txt"), "old\n");
  CHECK(testing::has_text(
      w.call("write_file", {{"path", "old.txt"}, {"content", "new\n"}})["warning"],
      "had not read"));
  w.call("read_file", {{"path", "old.txt"}});
  testing::put_file(w.file("old.txt"), "changed elsewhere, longer\n");
  CHECK(testing::has_text(
      w.call("write_file", {{"path", "old.txt"}, {"content", "mine\n"}})["warning"],
      "had changed"));
}

TEST_CASE("patch replaces text and returns a unified diff") {
  Workspace w;
  testing::put_file(w.file("calc.py"),
                    "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n");
  Json r =
      w.call("patch",
             {{"path", "calc.py"}, {"old_string", "return a + b"}, {"new_string", "return b + a"}});
  CHECK(r["success"] == true);
  CHECK(r["strategy"] == "exact");
  CHECK(r["diff"] ==
        "--- a/calc.py\n+++ b/calc.py\n@@ -1,5 +1,5 @@\n def add(a, b):\n-    return a + b\n+    "
        "return b + a\n \n \n def sub(a, b):\n");
  CHECK(testing::file_text(w.file("calc.py")).find("return b + a") != std::string::npos);
}

TEST_CASE("patch reports ambiguity, recognises applied edits and advises after failures") {
  Workspace w;
  testing::put_file(w.file("dup.txt"), "x = 1\nx = 1\n");
  CHECK(testing::has_text(
      w.call("patch",
             {{"path", "dup.txt"}, {"old_string", "x = 1"}, {"new_string", "x = 2"}})["error"],
      "Found 2 matches"));
  CHECK(w.call("patch", {{"path", "dup.txt"},
                         {"old_string", "x = 1"},
                         {"new_string", "x = 2"},
                         {"replace_all", true}})["replacements"] == 2);
  CHECK(w.call("patch", {{"path", "dup.txt"},
                         {"old_string", "y = 0\n"},
                         {"new_string", "x = 2\nx = 2"}})["success"] == true);
  Json last;
  for (int i = 0; i < 3; ++i)
    last = w.call("patch",
                  {{"path", "dup.txt"}, {"old_string", "nothing like it"}, {"new_string", "z"}});
  CHECK(testing::has_text(last["hint"], "failed 3 times"));
}

TEST_CASE("a V4A patch edits, adds and deletes files all together") {
  Workspace w;
  testing::put_file(w.file("a.txt"), "one\ntwo\nthree\n");
  testing::put_file(w.file("gone.txt"), "bye\n");
  const std::string patch =
      "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n*** Add File: "
      "b/new.txt\n+fresh\n"
      "*** Delete File: gone.txt\n*** End Patch\n";
  Json r = w.call("patch", {{"mode", "patch"}, {"patch", patch}});
  CHECK(r["success"] == true);
  CHECK(testing::file_text(w.file("a.txt")) == "one\nTWO\nthree\n");
  CHECK(testing::file_text(w.file("b/new.txt")) == "fresh\n");
  CHECK_FALSE(fs::exists(w.file("gone.txt")));
}

TEST_CASE("a V4A patch with a failing hunk changes nothing") {
  Workspace w;
  testing::put_file(w.file("a.txt"), "one\n");
  testing::put_file(w.file("c.txt"), "keep\n");
  const std::string patch =
      "*** Begin Patch\n*** Update File: a.txt\n-one\n+ONE\n*** Update File: c.txt\n-missing "
      "line\n+x\n*** End Patch";
  Json r = w.call("patch", {{"mode", "patch"}, {"patch", patch}});
  CHECK(r["success"] == false);
  CHECK(testing::file_text(w.file("a.txt")) == "one\n");
  CHECK_FALSE(w.raw_call("patch", {{"mode", "patch"}, {"patch", "not a patch"}}).ok());
  CHECK_FALSE(w.raw_call("patch", {{"mode", "sideways"}}).ok());
}

TEST_CASE("search_files finds content with context, by glob, and pages the results") {
  Workspace w;
  testing::put_file(w.file("src/a.py"), "import os\ndef main():\n    os.exit(0)\n");
  testing::put_file(w.file("src/b.txt"), "main street\n");
  testing::put_file(w.file(".git/config"), "main = hidden\n");
  Json r = w.call("search_files", {{"pattern", "main\\("}, {"context", 1}});
  REQUIRE(r["matches"].size() == 3);
  CHECK(r["matches"][1] == Json{{"path", "src/a.py"}, {"line", 2}, {"text", "def main():"}});
  CHECK(r["matches"][0]["context"] == true);
  Json glob = w.call("search_files", {{"pattern", "main"}, {"file_glob", "*.txt"}});
  REQUIRE(glob["matches"].size() == 1);
  CHECK(glob["matches"][0]["path"] == "src/b.txt");
  Json paged = w.call("search_files", {{"pattern", "."}, {"limit", 2}});
  CHECK(paged["truncated"] == true);
  CHECK(testing::has_text(paged["hint"], "offset=2"));
  Json counts = w.call("search_files", {{"pattern", "main"}, {"output_mode", "count"}});
  CHECK(counts["counts"] == Json{{"src/a.py", 1}, {"src/b.txt", 1}});
}

TEST_CASE("search_files lists files by name and skips secret files") {
  Workspace w;
  testing::put_file(w.file("one.py"), "x");
  testing::put_file(w.file("pkg/two.py"), "y");
  testing::put_file(w.file("pkg/.env"), "TOKEN=abc");
  testing::put_file(w.file("readme.md"), "z");
  Json r = w.call("search_files", {{"pattern", "*.py"}, {"target", "files"}});
  CHECK(r["total"] == 2);
  Json env = w.call("search_files", {{"pattern", "TOKEN"}});
  CHECK(env["matches"].empty());
  CHECK(testing::has_text(env["_omitted"], "1 file(s)"));
  CHECK(testing::has_text(w.raw_call("search_files", {{"pattern", "(unclosed"}}).status().message(),
                          "Invalid regex"));
  CHECK(w.raw_call("search_files", {{"pattern", "x"}, {"path", "../.."}}).status().code() ==
        StatusCode::kPermissionDenied);
}

TEST_CASE("search_files searches only the head of a very long line and says so") {
  Workspace w;
  std::string wide = "needle " + std::string(200000, 'm') + " haystack\n";
  testing::put_file(w.file("bundle.min.js"), wide + "short haystack\n");
  Json head = w.call("search_files", {{"pattern", "needle"}});
  REQUIRE(head["matches"].size() == 1);
  CHECK(head["matches"][0]["line"] == 1);
  CHECK(head["_long_lines"] ==
        "1 line(s) longer than 65536 bytes were searched only in their first 65536 bytes.");
  Json tail = w.call("search_files", {{"pattern", "haystack"}});
  REQUIRE(tail["matches"].size() == 1);  // The long line's tail is not searched.
  CHECK(tail["matches"][0]["line"] == 2);
  Json plain = w.call("search_files", {{"pattern", "short"}, {"path", "bundle.min.js"}});
  CHECK(plain.contains("_long_lines"));
}

TEST_CASE("an interrupted search_files stops instead of walking on") {
  Workspace w;
  for (int i = 0; i < 300; ++i) testing::put_file(w.file("d/f" + std::to_string(i)), "text\n");
  w.h.ctx.cancel.cancel();
  const Result<std::string> r = w.raw_call("search_files", {{"pattern", "text"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kCancelled);
  CHECK(r.status().message() == "search_files was interrupted before it finished");
}

TEST_CASE("a search_files pattern too costly for the text ends with an error naming the budget") {
  Workspace w;
  testing::put_file(w.file("caps.txt"), "ok line\n" + std::string(60000, 'A') + "\n");
  const Result<std::string> r =
      w.raw_call("search_files", {{"pattern", "(?=[^.]*[a-z])[A-Z]{16}"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kResourceExhausted);
  CHECK(r.status().message().rfind(
            "search_files stopped at caps.txt:2: the regex needs more than 20000000 steps", 0) ==
        0);
}
