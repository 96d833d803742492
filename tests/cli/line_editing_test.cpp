// Line editing in the interactive chat (libedit): Tab completes commands and skills, the
// up arrow recalls earlier lines (also those of an earlier run), a pasted block of lines
// is one message, and input that is not a terminal is read as plain lines.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli/cli_harness.hpp"
#include "cli/pty_session.hpp"

namespace hermes::testing {
namespace {

#if HERMES_CLI_LINE_EDITING
constexpr bool kNoLineEditing = false;
#else
constexpr bool kNoLineEditing = true;  // The CLI was built without libedit.
#endif

const char* const kPrompt = "\xE2\x80\xBA ";
const char* const kUp = "\x1b[A";

PtySession start_chat(const CliHarness& h) {
  return PtySession(HERMES_CLI_BINARY, {}, h.env());
}

bool wait_for_requests(const CliHarness& h, std::size_t count) {
  for (int i = 0; i < 300 && h.server.request_count() < count; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return h.server.request_count() >= count;
}

// The text of the last user message the model was sent.
std::string last_user_message(const CliHarness& h) {
  const Json body = h.server.requests().back().json();
  std::string text;
  for (const Json& m : body["messages"]) {
    if (m.value("role", "") == "user" && m["content"].is_string()) text = m["content"];
  }
  return text;
}

}  // namespace

TEST_CASE("Tab completes a slash command and a skill's name at the start of the line" *
          doctest::skip(kNoLineEditing)) {
  CliHarness h;
  const std::filesystem::path skill = std::filesystem::path(h.home.path()) / "skills/pdf-tools";
  std::filesystem::create_directories(skill);
  std::ofstream(skill / "SKILL.md") << "---\nname: pdf-tools\ndescription: Work with PDF files\n"
                                       "---\nUse pdftotext.\n";
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect(kPrompt));
  cli.send_keys("/hel\t\n");  // Completes to /help.
  CHECK(cli.expect("Commands:"));
  CHECK(cli.expect("/steer"));
  REQUIRE(cli.expect(kPrompt));
  cli.send_keys("/pdf\t\n");  // Completes to /pdf-tools, which loads the skill.
  CHECK(cli.expect("skill pdf-tools loaded"));
  REQUIRE(cli.expect(kPrompt));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
  CHECK(h.server.request_count() == 0);
}

TEST_CASE("the up arrow recalls the lines typed before, those of an earlier run too" *
          doctest::skip(kNoLineEditing)) {
  CliHarness h;
  {
    PtySession first = start_chat(h);
    REQUIRE(first.expect(kPrompt));
    first.send_line("/frobnicate once");
    REQUIRE(first.expect("Unknown command: /frobnicate"));
    REQUIRE(first.expect(kPrompt));
    first.send_keys(std::string(kUp) + "\n");  // The same line again.
    CHECK(first.expect("Unknown command: /frobnicate"));
    REQUIRE(first.expect(kPrompt));
    first.send_line("/exit");
    CHECK(first.wait_exit() == 0);
  }
  PtySession second = start_chat(h);
  REQUIRE(second.expect(kPrompt));
  // The last line of the first run was /exit; the one before it the command.
  second.send_keys(std::string(kUp) + kUp + "\n");
  CHECK(second.expect("Unknown command: /frobnicate"));
  REQUIRE(second.expect(kPrompt));
  second.send_line("/exit");
  CHECK(second.wait_exit() == 0);
}

TEST_CASE("lines pasted at the prompt in one block are one message" *
          doctest::skip(kNoLineEditing)) {
  CliHarness h;
  h.script("plain_answer.json");
  PtySession cli = start_chat(h);
  REQUIRE(cli.expect(kPrompt));
  cli.send_keys("Here is my question:\nWhat is the capital of France?\n");
  CHECK(cli.expect("The capital of France is Paris."));
  REQUIRE(wait_for_requests(h, 1));
  CHECK(last_user_message(h) == "Here is my question:\nWhat is the capital of France?");
  REQUIRE(cli.expect(kPrompt));
  cli.send_line("/exit");
  CHECK(cli.wait_exit() == 0);
  CHECK(h.server.request_count() == 1);  // Not one turn per line.
}

TEST_CASE("input that is not a terminal is read as plain lines") {
  CliHarness h;
  h.script("plain_answer.json");
  std::string command;
  for (const auto& [name, value] : h.env()) command += name + "='" + value + "' ";
  const std::string out = std::string(h.home.path()) + "/out.txt";
  command += std::string(HERMES_CLI_BINARY) + " > " + out + " 2>&1";
  FILE* cli = popen(command.c_str(), "w");
  REQUIRE(cli != nullptr);
  // The end of the input ends the chat once the turn is over.
  std::fputs("What is the capital of France?\n", cli);
  CHECK(pclose(cli) == 0);
  std::ifstream in(out);
  const std::string shown((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(shown.find("The capital of France is Paris.") != std::string::npos);
  CHECK(shown.find("\x1b[") == std::string::npos);  // No line editor drew anything.
  CHECK(h.server.request_count() == 1);
}

}  // namespace hermes::testing
