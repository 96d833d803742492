// The command guards, driven by tests/fixtures/safety/commands.json: dangerous commands,
// hardline commands and the safe lookalikes that must pass.
#include <doctest/doctest.h>
#include <unistd.h>

#include "hermes/safety.hpp"
#include "safety/command_guard.hpp"
#include "unit/tools/fixture_file.hpp"

using namespace hermes;
using hermes::internal::HomeFold;

namespace {

// The fixture spells the user's home as /home/alice and the hermes home inside it.
const std::vector<HomeFold> kFolds = {{"/home/alice/.hermes", "~/.hermes"}, {"/home/alice", "~"}};

std::string verdict(const CommandFinding& f) {
  return f.found ? f.description : "(safe)";
}

std::string expected(const Json& value) {
  return value.is_null() ? "(safe)" : value.get<std::string>();
}

}  // namespace

TEST_CASE("every fixture command gets the expected dangerous and hardline verdicts") {
  const Json cases = hermes::testing::load_fixture_json("safety/commands.json");
  REQUIRE(cases.size() >= 100);
  int dangerous = 0;
  int safe = 0;
  for (const Json& c : cases) {
    const std::string command = c.at("command").get<std::string>();
    CAPTURE(command);
    CHECK(verdict(internal::detect_dangerous(command, kFolds)) == expected(c.at("dangerous")));
    CHECK(verdict(internal::detect_hardline(command, kFolds)) == expected(c.at("hardline")));
    (c.at("dangerous").is_null() && c.at("hardline").is_null() ? safe : dangerous)++;
  }
  CHECK(dangerous >= 50);  // Both kinds are well represented.
  CHECK(safe >= 30);
}

TEST_CASE("the public detector folds the real home directory like ~") {
  const char* home = std::getenv("HOME");
  REQUIRE(home != nullptr);
  const std::string command = std::string("echo 'alias x=y' >> ") + home + "/.bashrc";
  if (std::string(home).find('/', 1) != std::string::npos) {  // A home like /root cannot fold.
    CHECK(detect_dangerous_command(command).description == "overwrite system file via redirection");
  }
  CHECK_FALSE(detect_dangerous_command("ls -la").found);
  CHECK(detect_hardline_command("rm -rf /").description == "recursive delete of root filesystem");
}

TEST_CASE("a kill aimed at the hosting process is self-termination") {
  const std::string command = "kill -TERM " + std::to_string(::getpid());
  CHECK(detect_dangerous_command(command).description ==
        "kill hermes/gateway process (self-termination)");
  CHECK_FALSE(detect_dangerous_command("kill -TERM 999999999").found);
}

TEST_CASE("commands too large to inspect are refused as hardline") {
  const std::string huge(5000, 'a');  // Long and without any separator.
  CHECK(detect_hardline_command(huge).description == "command parser limit exceeded");
  CHECK(detect_dangerous_command(huge).description == "command parser limit exceeded");
  CHECK_FALSE(detect_hardline_command(std::string(3000, 'a')).found);
}

TEST_CASE("sh -c payloads are inspected as commands of their own") {
  auto findings = internal::execution_findings("bash -lc 'rm -rf /tmp/x'");
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].description == "shell command via -c/-lc flag");
  REQUIRE(findings[0].payload.has_value());
  CHECK(*findings[0].payload == "rm -rf /tmp/x");
  CHECK(detect_hardline_command("sh -c 'shutdown now'").description == "system shutdown/reboot");
}
