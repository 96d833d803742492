// A V4A patch that moves a file: the destination is written before the source goes, an
// existing destination is refused, and a write that fails loses nothing.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
namespace fs = std::filesystem;

namespace {

struct PatchWorkspace {
  testing::ToolHarness h;
  testing::TempDir root;
  std::vector<ToolSpec> tools;

  PatchWorkspace() {
    FileToolOptions options;
    options.root = fs::canonical(root.path()).string();
    tools = internal::file_tools(options, ApprovalOptions{});
  }
  std::string file(const std::string& name) const { return root.file(name); }
  Result<std::string> patch(const std::string& text) {
    return h.call(testing::spec_named(tools, "patch"), {{"mode", "patch"}, {"patch", text}});
  }
};

std::string move_patch(const std::string& from, const std::string& to) {
  return "*** Begin Patch\n*** Update File: " + from + "\n*** Move to: " + to +
         "\n@@\n-old line\n+new line\n*** End Patch\n";
}

}  // namespace

TEST_CASE("a moved file appears at its destination, patched, keeps its mode, and its source goes") {
  PatchWorkspace w;
  testing::put_file(w.file("tool.sh"), "#!/bin/sh\nold line\n");
  ::chmod(w.file("tool.sh").c_str(), 0750);
  auto r = w.patch(move_patch("tool.sh", "bin/tool.sh"));
  REQUIRE(r.ok());
  CHECK(testing::has_text(*r, "\"success\":true"));
  CHECK(testing::file_text(w.file("bin/tool.sh")) == "#!/bin/sh\nnew line\n");
  CHECK_FALSE(fs::exists(w.file("tool.sh")));
  struct stat info {};
  REQUIRE(::stat(w.file("bin/tool.sh").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0750);
}

TEST_CASE("a move onto an existing file is refused and changes nothing") {
  PatchWorkspace w;
  testing::put_file(w.file("a.txt"), "old line\n");
  testing::put_file(w.file("b.txt"), "precious\n");
  auto r = w.patch(move_patch("a.txt", "b.txt"));
  REQUIRE(r.ok());
  Json answer = Json::parse(*r);
  CHECK(answer["success"] == false);
  CHECK(answer["error"] ==
        "Cannot move a.txt to b.txt: b.txt already exists. Nothing was changed.");
  CHECK(testing::file_text(w.file("a.txt")) == "old line\n");
  CHECK(testing::file_text(w.file("b.txt")) == "precious\n");
}

TEST_CASE("a move whose destination cannot be written keeps the source intact") {
  PatchWorkspace w;
  testing::put_file(w.file("notes.txt"), "keep me\nold line\n");
  // A file where the destination's directory should be: the write fails, even for root.
  testing::put_file(w.file("blocker"), "not a directory\n");
  auto r = w.patch(move_patch("notes.txt", "blocker/notes.txt"));
  CHECK_FALSE(r.ok());
  CHECK(testing::has_text(r.status().message(), "cannot write blocker/notes.txt"));
  CHECK(testing::has_text(r.status().message(), "Nothing was changed."));
  CHECK(testing::file_text(w.file("notes.txt")) == "keep me\nold line\n");
  CHECK(testing::file_text(w.file("blocker")) == "not a directory\n");

  if (::geteuid() != 0) {  // Directory permissions do not bind root.
    fs::create_directory(w.file("locked"));
    ::chmod(w.file("locked").c_str(), 0555);
    auto locked = w.patch(move_patch("notes.txt", "locked/notes.txt"));
    ::chmod(w.file("locked").c_str(), 0755);
    CHECK_FALSE(locked.ok());
    CHECK(testing::file_text(w.file("notes.txt")) == "keep me\nold line\n");
    CHECK_FALSE(fs::exists(w.file("locked/notes.txt")));
  }
}

TEST_CASE("when a later write of a patch fails, the earlier ones are put back") {
  PatchWorkspace w;
  testing::put_file(w.file("a.txt"), "old line\n");
  testing::put_file(w.file("blocker"), "x\n");
  const std::string patch =
      "*** Begin Patch\n*** Update File: a.txt\n-old line\n+new line\n*** Add File: fresh.txt\n"
      "+hello\n*** Add File: blocker/new.txt\n+never\n*** End Patch\n";
  CHECK_FALSE(w.patch(patch).ok());
  CHECK(testing::file_text(w.file("a.txt")) == "old line\n");
  CHECK_FALSE(fs::exists(w.file("fresh.txt")));
}
