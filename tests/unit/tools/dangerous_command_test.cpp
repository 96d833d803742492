// The command guards, driven by tests/fixtures/safety/commands.json: dangerous commands,
// hardline commands and the safe lookalikes that must pass.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hermes/safety.hpp"
#include "safety/command_guard.hpp"
#include "safety/command_normalization.hpp"
#include "unit/tools/fixture_file.hpp"

using namespace hermes;

namespace {

std::string verdict(const CommandFinding& f) {
  return f.found ? f.description : "(safe)";
}

std::string expected(const Json& value) {
  return value.is_null() ? "(safe)" : value.get<std::string>();
}

// Points $HOME and $HERMES_HOME somewhere for the length of a test.
class ScopedHomes {
 public:
  ScopedHomes(const char* home, const char* hermes_home) {
    save("HOME", home);
    save("HERMES_HOME", hermes_home);
  }
  ~ScopedHomes() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  void save(const char* name, const char* value) {
    const char* old = std::getenv(name);
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    ::setenv(name, value, 1);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace

TEST_CASE("every fixture command gets the expected dangerous and hardline verdicts") {
  const Json cases = hermes::testing::load_fixture_json("safety/commands.json");
  REQUIRE(cases.size() >= 100);
  // The fixture spells the user's home as /home/alice and the hermes home inside it.
  ScopedHomes homes("/home/alice", "/home/alice/.hermes");
  int dangerous = 0;
  int safe = 0;
  for (const Json& c : cases) {
    const std::string command = c.at("command").get<std::string>();
    CAPTURE(command);
    CHECK(verdict(detect_dangerous_command(command)) == expected(c.at("dangerous")));
    CHECK(verdict(detect_hardline_command(command)) == expected(c.at("hardline")));
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
  ScopedHomes homes("/srv/users/bob", "/srv/hermes");
  CHECK(detect_dangerous_command("echo x >> /srv/users/bob/.zshrc").description ==
        "overwrite system file via redirection");
  CHECK(detect_dangerous_command("sed -i s/a/b/ /srv/hermes/config.yaml").description ==
        "in-place edit of Hermes config/env");
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

namespace {

// Checks every case of one group of hidden_commands.json; returns how many there were.
int check_hidden_group(const Json& cases) {
  int count = 0;
  for (const Json& c : cases) {
    const std::string command = c.at("command").get<std::string>();
    CAPTURE(command);
    CHECK(verdict(detect_dangerous_command(command)) == expected(c.at("dangerous")));
    CHECK(verdict(detect_hardline_command(command)) == expected(c.at("hardline")));
    ++count;
  }
  return count;
}

const Json& hidden_commands() {
  static const Json cases = hermes::testing::load_fixture_json("safety/hidden_commands.json");
  return cases;
}

}  // namespace

TEST_CASE(
    "a command whose program is hidden or wrapped is dangerous, and wrappers hide no hardline") {
  ScopedHomes homes("/home/alice", "/home/alice/.hermes");
  CHECK(check_hidden_group(hidden_commands().at("hidden")) >= 40);
}

TEST_CASE(
    "any command writing to hermes state, SSH keys, start-up or credentials files is dangerous") {
  ScopedHomes homes("/home/alice", "/home/alice/.hermes");
  CHECK(check_hidden_group(hidden_commands().at("writes")) >= 15);
}

TEST_CASE("the environment or a credentials file sent to the network is exfiltration") {
  ScopedHomes homes("/home/alice", "/home/alice/.hermes");
  CHECK(check_hidden_group(hidden_commands().at("exfiltration")) >= 10);
}

TEST_CASE("ordinary commands with variables, loops, pipes and substitutions stay safe") {
  ScopedHomes homes("/home/alice", "/home/alice/.hermes");
  CHECK(check_hidden_group(hidden_commands().at("safe")) >= 40);
}

TEST_CASE("writes into the hermes home the agent actually uses count wherever it lives") {
  ScopedHomes homes("/srv/users/bob", "/srv/agents/hermes-7");
  CHECK(detect_dangerous_command("echo x > /srv/agents/hermes-7/command_allowlist.json")
            .description == "write to hermes state or home (~/.hermes, state.db, allowlist)");
  CHECK(detect_dangerous_command("cp a /srv/agents/hermes-7/config.json").description ==
        "write to hermes state or home (~/.hermes, state.db, allowlist)");
  CHECK_FALSE(detect_dangerous_command("cat /srv/agents/hermes-7/config.json").found);
  CHECK_FALSE(detect_dangerous_command("cp a /srv/agents/other/config.json").found);
}

TEST_CASE("ANSI-C strings are decoded for the rules, and what they decode to stays valid text") {
  CHECK(internal::decode_ansi_c_strings("$'\\x72\\x6d' -rf x") == "rm -rf x");
  CHECK(internal::decode_ansi_c_strings("$'\\162\\155' -rf x") == "rm -rf x");
  CHECK(internal::decode_ansi_c_strings("echo $'a b\\n'") == "echo 'a b '");
  CHECK(internal::decode_ansi_c_strings("echo '$'\\''x'") == "echo '$'\\''x'");  // Quoted: literal.
  // Bytes outside ASCII become '?', control characters spaces; text after \c stays whole.
  CHECK(internal::decode_ansi_c_strings("$'\\xff\\u00e9\\c\xc3\xa9'") == "'?? \xc3\xa9'");
}
