// The file tools against a root with ways out planted in it: `..`, absolute paths, a
// symlinked directory and a symlinked file that point outside. Nothing outside may be
// read, written, patched or listed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hermes/builtin_tools.hpp"
#include "support/temp_dir.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::TempDir;
using hermes::testing::ToolHarness;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSecret = "top secret outside the root";

struct EscapeFixture {
  TempDir root_dir;
  TempDir outside;
  ToolRegistry tools;
  ToolHarness h;

  EscapeFixture() {
    std::ofstream(outside.file("secret.txt")) << kSecret;
    fs::create_directory_symlink(outside.path(), root_dir.file("dirlink"));
    fs::create_symlink(outside.file("secret.txt"), root_dir.file("filelink"));
    fs::create_directories(root_dir.file("sub"));
    BuiltinToolOptions o;
    o.toolsets = {"file"};
    o.file.root = fs::canonical(root_dir.path()).string();
    REQUIRE(register_builtin_tools(tools, o).ok());
  }

  // The tool's answer, error or not, as text.
  std::string call(const std::string& name, const Json& args) {
    auto spec = tools.find(name);
    REQUIRE(spec);
    Result<std::string> r = h.call(*spec, args);
    return r.ok() ? *r : r.status().message();
  }

  // The ways out, spelled as paths relative to or outside the root.
  std::vector<std::string> escapes(const std::string& name) const {
    return {"../" + fs::path(outside.path()).filename().string() + "/" + name,
            outside.file(name), "dirlink/" + name, "sub/../../" + name,
            "sub/../dirlink/" + name};
  }

  std::string secret_now() const {
    std::ifstream in(outside.file("secret.txt"));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::size_t files_outside() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(outside.path()), {}));
  }
};

}  // namespace

TEST_CASE("read_file never returns a file outside its root, through any path") {
  EscapeFixture f;
  std::vector<std::string> paths = f.escapes("secret.txt");
  paths.push_back("filelink");
  for (const std::string& path : paths) {
    CAPTURE(path);
    CHECK(f.call("read_file", {{"path", path}}).find(kSecret) == std::string::npos);
  }
}

TEST_CASE("write_file creates and overwrites nothing outside its root") {
  EscapeFixture f;
  std::vector<std::string> paths = f.escapes("planted.txt");
  paths.push_back("filelink");
  paths.push_back("dirlink/secret.txt");
  for (const std::string& path : paths) {
    CAPTURE(path);
    f.call("write_file", {{"path", path}, {"content", "overwritten"}});
    CHECK(f.secret_now() == kSecret);
    CHECK(f.files_outside() == 1);
  }
}

TEST_CASE("patch edits nothing outside its root") {
  EscapeFixture f;
  std::vector<std::string> paths = f.escapes("secret.txt");
  paths.push_back("filelink");
  for (const std::string& path : paths) {
    CAPTURE(path);
    f.call("patch", {{"mode", "replace"}, {"path", path}, {"old_string", "top secret"},
                     {"new_string", "patched"}});
    CHECK(f.secret_now() == kSecret);
  }
  std::string v4a = "*** Begin Patch\n*** Add File: ../planted.txt\n+x\n*** End Patch\n";
  f.call("patch", {{"mode", "patch"}, {"patch", v4a}});
  CHECK_FALSE(fs::exists(fs::path(f.root_dir.path()).parent_path() / "planted.txt"));
}

TEST_CASE("search_files finds nothing outside its root") {
  EscapeFixture f;
  for (const std::string& path : {std::string(".."), f.outside.path(), std::string("dirlink"),
                                  std::string("sub/../.."), std::string("/")}) {
    CAPTURE(path);
    std::string found = f.call("search_files", {{"pattern", "top secret"}, {"path", path}});
    CHECK(found.find(kSecret) == std::string::npos);
  }
  // A search of the root itself does not follow the links out either.
  std::string found = f.call("search_files", {{"pattern", "top secret"}});
  CHECK(found.find(kSecret) == std::string::npos);
}
