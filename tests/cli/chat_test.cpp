// The hermes CLI driven through a pseudo-terminal against the mock model server.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include "cli/cli_harness.hpp"
#include "cli/pty_session.hpp"

namespace hermes::testing {
namespace {

PtySession start_chat(const CliHarness& h, std::vector<std::string> args = {}) {
  return PtySession(HERMES_CLI_BINARY, args, h.env());
}

// Waits until the server has received `count` requests (a request still in flight when
// Ctrl+C is pressed must have reached the server, or its scripted reply would be served
// to the next turn).
bool wait_for_requests(const CliHarness& h, std::size_t count) {
  for (int i = 0; i < 300 && h.server.request_count() < count; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return h.server.request_count() >= count;
}

}  // namespace

TEST_CASE("a chat turn streams the answer and the prompt comes back") {
  CliHarness h;
  h.script("plain_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("What is the capital of France?");
  CHECK(cli.expect("The capital of France is Paris."));
  CHECK(cli.expect("\xE2\x80\xBA "));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
  CHECK(h.server.request_count() == 1);
}

TEST_CASE("a tool call is shown while the turn runs and its completion is listed") {
  CliHarness h;
  h.script("todo_then_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Make me a picnic list");
  CHECK(cli.expect("\xE2\x9C\x93 todo_list"));
  CHECK(cli.expect("Your list has one item"));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("/sessions lists the current session and /search finds what was said") {
  CliHarness h;
  h.script("plain_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Which city is the capital of France?");
  REQUIRE(cli.expect("Paris."));
  REQUIRE(cli.expect("\xE2\x80\xBA "));  // The turn is over and recorded.
  cli.send_line("/sessions");
  CHECK(cli.expect("* "));
  CHECK(cli.expect("msgs"));
  cli.send_line("/search capital");
  CHECK(cli.expect(">>>capital<<<"));
  cli.send_line("/search zeppelin");
  CHECK(cli.expect("(no matches for \"zeppelin\")"));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("typed lines are kept in a private history file that /history shows in the next run") {
  CliHarness h;
  h.script("plain_answer.json");
  {
    PtySession cli = start_chat(h);
    REQUIRE(cli.expect("\xE2\x80\xBA "));
    cli.send_line("What is the capital of France? key sk-proj-abcdefghijklmnopqrstuvwxyz0123");
    REQUIRE(cli.expect("Paris."));
    REQUIRE(cli.expect("\xE2\x80\xBA "));
    cli.send_line("/exit");
    CHECK(cli.wait_exit() == 0);
  }
  struct stat info {};
  REQUIRE(::stat(h.home.file("cli_history").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  const std::string saved = read_text(h.home.file("cli_history"));
  CHECK(saved.find("What is the capital of France?") != std::string::npos);
  CHECK(saved.find("abcdefghijklmnopqrstuvwxyz0123") == std::string::npos);  // Masked.

  PtySession again = start_chat(h);
  REQUIRE(again.expect("\xE2\x80\xBA "));
  again.send_line("/history");
  CHECK(again.expect("1  What is the capital of France?"));
  CHECK(again.expect("2  /exit"));
  CHECK(again.expect("3  /history"));
  again.send_line("/history x");
  CHECK(again.expect("Usage: /history [number of lines]"));
  again.send_line("/exit");
  CHECK(again.wait_exit() == 0);
}

TEST_CASE("/new starts another session and /usage counts only its turns") {
  CliHarness h;
  h.script("plain_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Capital of France?");
  REQUIRE(cli.expect("Paris."));
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("/usage");
  REQUIRE(cli.expect("input tokens"));
  CHECK(cli.expect("120"));
  REQUIRE(cli.expect("total tokens"));
  CHECK(cli.expect("128"));
  cli.send_line("/new");
  CHECK(cli.expect("new session "));
  cli.send_line("/usage");
  REQUIRE(cli.expect("(0 turns, 0 model calls"));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("an unknown slash command is named and /help is suggested") {
  CliHarness h;
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("/frobnicate now");
  CHECK(cli.expect("Unknown command: /frobnicate. Type /help"));
  cli.send_line("/help");
  CHECK(cli.expect("/steer"));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
  CHECK(h.server.request_count() == 0);
}

TEST_CASE("Ctrl+C interrupts the running turn and the chat goes on; twice exits") {
  CliHarness h;
  h.script("slow_answer.json");
  h.script("plain_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Tell me slowly");
  REQUIRE(wait_for_requests(h, 1));
  cli.send_ctrl_c();
  CHECK(cli.expect("interrupted"));
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("And now quickly?");
  CHECK(cli.expect("Paris."));
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_ctrl_c();
  CHECK(cli.expect("Ctrl+C again to exit"));
  cli.send_ctrl_c();
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("/stop ends a running turn from the live input") {
  CliHarness h;
  h.script("slow_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Tell me slowly");
  REQUIRE(cli.expect("thinking"));
  REQUIRE(wait_for_requests(h, 1));
  cli.send_line("/stop");
  CHECK(cli.expect("interrupted"));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE(
    "a dangerous command waits for approval in the terminal, and a denial keeps it from running") {
  CliHarness h;
  const std::string victim = h.home.file("keep-me");
  write_text(victim + ".txt", "precious");
  h.enqueue(Json{
      {"chat_tool_calls",
       Json::array({{{"id", "call_rm"},
                     {"name", "terminal"},
                     {"arguments", {{"command", "rm -rf " + h.home.path() + "/keep-me.txt"}}}}})},
      {"stream", true}});
  h.enqueue(Json{{"chat_text", "I did not delete it."}, {"stream", true}});
  PtySession cli = start_chat(h, {"--toolsets", "terminal"});
  REQUIRE(cli.expect("\xE2\x80\xBA "));
  cli.send_line("Clean up my file");
  REQUIRE(cli.expect("Dangerous command"));
  REQUIRE(cli.expect("Allow?"));
  cli.send_line("d");
  CHECK(cli.expect("denied"));
  CHECK(cli.expect("I did not delete it."));
  CHECK(read_text(victim + ".txt") == "precious");
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("-q exits 0 when the turn completed and prints only the answer on stdout") {
  CliHarness h;
  h.script("plain_answer.json");
  PtySession cli = start_chat(h, {"-q", "Capital of France?"});
  CHECK(cli.expect("The capital of France is Paris."));
  CHECK(cli.wait_exit() == 0);
}

TEST_CASE("with OTEL_EXPORTER_OTLP_ENDPOINT set, the turn's spans reach the collector at exit") {
  CliHarness h;
  h.script("plain_answer.json");
  OtlpCollector collector;
  std::map<std::string, std::string> env = h.env();
  env["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.server.url();
  env["OTEL_SERVICE_NAME"] = "cli-under-test";
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital of France?"}, env);
  CHECK(cli.expect("The capital of France is Paris."));
  CHECK(cli.wait_exit() == 0);
  const auto [service, names] = collector.spans();
  CHECK(service == "cli-under-test");
  CHECK(names.count("invoke_agent hermes") == 1);
  CHECK(names.count("chat test-model") == 1);
}

TEST_CASE("-q exits non-zero when the model call fails") {
  CliHarness h;
  h.script("auth_failure.json");
  h.server.set_default(
      mock_response_from_json(Json::parse(read_text(cli_fixture("auth_failure.json")))[0]).value());
  PtySession cli = start_chat(h, {"-q", "Capital of France?"});
  CHECK(cli.expect("did not complete"));
  CHECK(cli.wait_exit() == 1);
}

TEST_CASE("a malformed config file stops the CLI with its line and the fix, before any call") {
  CliHarness h;
  h.script("plain_answer.json");
  write_text(h.home.file("config.json"), read_text(cli_fixture("config_broken.json")));
  PtySession cli = start_chat(h, {"-q", "Capital?"});
  CHECK(cli.expect("config.json: not valid JSON at line 5"));
  CHECK(cli.expect("move it away"));
  CHECK(cli.wait_exit() == 2);
  CHECK(h.server.request_count() == 0);
  CHECK_FALSE(std::filesystem::exists(h.home.file("state.db")));
}

TEST_CASE("a config file holding JSON that is not an object stops the CLI too") {
  CliHarness h;
  h.script("plain_answer.json");
  write_text(h.home.file("config.json"), "[\"model\", \"gpt\"]\n");
  PtySession cli = start_chat(h, {"-q", "Capital?"});
  CHECK(cli.expect("must hold a JSON object"));
  CHECK(cli.wait_exit() == 2);
  CHECK(h.server.request_count() == 0);
}

TEST_CASE("a config key of the wrong type is named, and the rest of the file still applies") {
  CliHarness h;
  h.script("plain_answer.json");
  write_text(h.home.file("config.json"), read_text(cli_fixture("config_bad_key.json")));
  auto env = h.env();
  env.erase("HERMES_MODEL");
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital?"}, env);
  CHECK(cli.expect("\"max_iterations\" must be"));
  CHECK(cli.expect("unknown key \"colour\""));
  CHECK(cli.wait_exit() == 0);
  REQUIRE(h.server.request_count() == 1);
  CHECK(h.server.requests()[0].json()["model"] == "from-config");
}

}  // namespace hermes::testing
