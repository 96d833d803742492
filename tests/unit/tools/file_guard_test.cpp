// The file guard: credential stores and hermes's own policy files are neither read nor
// written by the file tools, and the refusal says which file and why.
#include "safety/file_guard.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "support/scoped_env.hpp"
#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::internal::FileGuard;
using hermes::internal::WriteVerdict;
namespace fs = std::filesystem;

namespace {

const FileGuard kGuard{"/home/u", "/home/u/.hermes"};

}  // namespace

TEST_CASE("credential stores in the user's home are refused for reading and writing") {
  for (const char* path :
       {"/home/u/.ssh/id_rsa", "/home/u/.ssh/id_ed25519", "/home/u/.ssh/deploy_key",
        "/home/u/.ssh/keys/work", "/home/u/.aws/credentials", "/home/u/.aws/config",
        "/home/u/.kube/config", "/home/u/.netrc", "/home/u/.docker/config.json",
        "/home/u/.git-credentials", "/home/u/.config/git/credentials", "/home/u/.gnupg/x.key",
        "/home/u/.config/gh/hosts.yml", "/home/u/.pgpass", "/home/u/.vault-token"}) {
    CAPTURE(path);
    auto read = kGuard.check_read(path);
    REQUIRE(read.has_value());
    CHECK(read->find(std::string("'") + path + "'") != std::string::npos);
    CHECK(kGuard.check_write(path) == WriteVerdict::kDenied);
    REQUIRE(kGuard.write_denial(path).has_value());
    CHECK(kGuard.write_denial(path)->find(path) != std::string::npos);
  }
}

TEST_CASE("a refusal names the file, the protected place and why") {
  CHECK(kGuard.check_read("/home/u/.aws/credentials") ==
        "Read denied: '/home/u/.aws/credentials' is inside ~/.aws (AWS credentials).");
  CHECK(kGuard.check_read("/home/u/.netrc") ==
        "Read denied: '/home/u/.netrc' is ~/.netrc (passwords for remote hosts).");
  CHECK(kGuard.write_denial("/home/u/.hermes/command_allowlist.json") ==
        "Write denied: '/home/u/.hermes/command_allowlist.json' is <hermes "
        "home>/command_allowlist.json (the commands approved to run without asking).");
  CHECK(kGuard.check_read("/srv/app/.env")->find("is an environment file") != std::string::npos);
}

TEST_CASE(
    "only the public files of ~/.ssh can be read, and only its config written with approval") {
  for (const char* path : {"/home/u/.ssh/id_rsa.pub", "/home/u/.ssh/known_hosts",
                           "/home/u/.ssh/authorized_keys", "/home/u/.ssh/config", "/home/u/.ssh"}) {
    CAPTURE(path);
    CHECK_FALSE(kGuard.check_read(path).has_value());
  }
  CHECK(kGuard.check_write("/home/u/.ssh/config") == WriteVerdict::kNeedsApproval);
  CHECK(kGuard.check_write("/home/u/.ssh/authorized_keys") == WriteVerdict::kDenied);
  CHECK(kGuard.check_write("/home/u/.ssh/id_rsa.pub") == WriteVerdict::kDenied);
}

TEST_CASE("hermes's configuration, allow-list and tokens are refused; its memories are not") {
  for (const char* path :
       {"/home/u/.hermes/.env", "/home/u/.hermes/config.yaml",
        "/home/u/.hermes/command_allowlist.json", "/home/u/.hermes/mcp.json",
        "/home/u/.hermes/auth.json", "/home/u/.hermes/auth/google_oauth.json",
        "/home/u/.hermes/mcp-tokens/github.json", "/home/u/.hermes/mcp-tokens"}) {
    CAPTURE(path);
    CHECK(kGuard.check_read(path).has_value());
    CHECK(kGuard.check_write(path) == WriteVerdict::kDenied);
  }
  CHECK(kGuard.check_write("/home/u/.hermes/state.db-wal") == WriteVerdict::kDenied);
  CHECK(kGuard.check_read("/home/u/.hermes/skills/.hub/index.json").has_value());
  CHECK_FALSE(kGuard.check_read("/home/u/.hermes/memories/MEMORY.md").has_value());
  CHECK(kGuard.check_write("/home/u/.hermes/memories/MEMORY.md") == WriteVerdict::kAllowed);
}

TEST_CASE("names that only look like protected ones are left alone") {
  for (const char* path :
       {"/home/u/.sshx/id_rsa", "/home/u/project/.aws-notes.md", "/home/u/.netrc.example",
        "/home/u/project/.ssh/id_rsa", "/home/u/.hermes-old/config.yaml", "/home/u/.env.example"}) {
    CAPTURE(path);
    CHECK_FALSE(kGuard.check_read(path).has_value());
    CHECK(kGuard.check_write(path) == WriteVerdict::kAllowed);
  }
}

TEST_CASE("a home of / still guards /.ssh") {
  const FileGuard root_home{"/", ""};
  CHECK(root_home.check_read("/.ssh/id_rsa").has_value());
  CHECK(root_home.check_read("/.aws/credentials").has_value());
  CHECK_FALSE(root_home.check_read("/srv/app/main.py").has_value());
}

TEST_CASE("read_file and search_files refuse the credential files of the home they work in") {
  testing::TempDir home;
  const std::string root = fs::canonical(home.path()).string();
  testing::ScopedEnv env;
  env.set("HOME", root);
  testing::put_file(root + "/.aws/credentials", "aws_secret_access_key = wJalrXUtnFEMI\n");
  testing::put_file(root + "/.ssh/id_ed25519", "not really a key\n");
  testing::put_file(root + "/.ssh/known_hosts", "github.com ssh-ed25519 AAAAC3Nza\n");
  FileToolOptions options;
  options.root = root;
  auto tools = internal::file_tools(options, ApprovalOptions{});
  testing::ToolHarness h;
  auto read = [&](const std::string& path) {
    return h.call(testing::spec_named(tools, "read_file"), {{"path", path}});
  };
  auto aws = read(".aws/credentials");
  REQUIRE_FALSE(aws.ok());
  CHECK(aws.status().code() == StatusCode::kPermissionDenied);
  CHECK(aws.status().message() ==
        "Read denied: '" + root + "/.aws/credentials' is inside ~/.aws (AWS credentials).");
  CHECK_FALSE(read("~/.ssh/id_ed25519").ok());
  CHECK(read(".ssh/known_hosts").ok());
  auto found =
      h.call(testing::spec_named(tools, "search_files"), {{"pattern", "really"}, {"path", ".ssh"}});
  REQUIRE(found.ok());
  CHECK(found->find("not really a key") == std::string::npos);
  CHECK_FALSE(
      h.call(testing::spec_named(tools, "search_files"), {{"pattern", "secret"}, {"path", ".aws"}})
          .ok());
  auto written = h.call(testing::spec_named(tools, "write_file"),
                        {{"path", ".kube/config"}, {"content", "x"}});
  CHECK(written.status().message().find("~/.kube") != std::string::npos);
}
