// What an MCP server process finds in its environment: this process's variables without
// the secrets, plus what its configuration gives it.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cerrno>

#include "hermes/mcp.hpp"
#include "mcp/child_process.hpp"
#include "support/scoped_env.hpp"

using namespace hermes;

namespace {

std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

}  // namespace

TEST_CASE("a server process inherits no secrets but those passed through or configured") {
  testing::ScopedEnv env;
  env.set("HERMES_PROBE_API_KEY", "hidden-key")
      .set("AWS_SECRET_ACCESS_KEY", "hidden-aws")
      .set("HERMES_PROBE_TOKEN", "passed")
      .set("HERMES_PROBE_PLAIN", "plain");
  internal::ChildProcessOptions options;
  options.command = "/bin/sh";
  options.args = {"-c",
                  "echo \"[$HERMES_PROBE_API_KEY][$AWS_SECRET_ACCESS_KEY][$HERMES_PROBE_TOKEN]"
                  "[$HERMES_PROBE_PLAIN][$EXPLICIT_SECRET]\""};
  options.env = {{"EXPLICIT_SECRET", "given"}};
  options.env_passthrough = {"HERMES_PROBE_TOKEN"};
  internal::ChildProcess child;
  REQUIRE(child.spawn(options).ok());
  CHECK(read_all(child.stdout_fd()) == "[][][passed][plain][given]\n");
  CHECK(child.wait_for_exit(std::chrono::seconds(10)));
}

TEST_CASE("env_passthrough is read from the configuration file") {
  auto parsed = parse_mcp_config(
      R"({"mcpServers": {"gh": {"command": "gh-mcp", "env_passthrough": ["GITHUB_TOKEN"]}}})");
  REQUIRE(parsed.ok());
  CHECK(parsed->at(0).env_passthrough == std::vector<std::string>{"GITHUB_TOKEN"});
  auto bad =
      parse_mcp_config(R"({"mcpServers": {"gh": {"command": "x", "env_passthrough": "A"}}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "mcpServers.gh.env_passthrough: expected an array of strings");
}
