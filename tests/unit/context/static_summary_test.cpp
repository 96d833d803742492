#include "context/static_summary.hpp"

#include <doctest/doctest.h>

#include "context/summary_markers.hpp"
#include "context/summary_prompt.hpp"
#include "context/text_cut.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::bulk;
using testing::TranscriptBuilder;

TEST_CASE("a static summary keeps the ask, the tool calls, the files and the errors") {
  TranscriptBuilder t;
  t.user("Refactor /srv/app/parser.py and run the tests")
      .tool_round("read_file", R"({"path":"/srv/app/parser.py"})", bulk("parser", 3000))
      .tool_round("terminal", R"({"command":"pytest","workdir":"/srv/app"})",
                  "{\"exit_code\": 1}\nFAILED tests/test_parser.py::test_dates - AssertionError")
      .assistant("The date test fails; see ~/notes/todo.md for the plan.");
  const std::string s = build_static_summary(t.messages(), "", "HTTP 500 server_error", nullptr);
  CHECK(s.rfind("## Historical Task Snapshot\nUser asked: 'Refactor /srv/app/parser.py and run the "
                "tests'",
                0) == 0);
  CHECK(s.find("Called tool(s): read_file") != std::string::npos);
  CHECK(s.find("[terminal] ran `pytest` -> exit 1, 2 lines output") != std::string::npos);
  CHECK(s.find("- /srv/app/parser.py") != std::string::npos);
  CHECK(s.find("- /srv/app\n") != std::string::npos);
  CHECK(s.find("- ~/notes/todo.md") != std::string::npos);
  CHECK(s.find("AssertionError") != std::string::npos);
  CHECK(s.find("HTTP 500 server_error") != std::string::npos);
  // It has the template's shape, so a later model summary can update it.
  std::size_t last = 0;
  for (auto heading : kSummaryHeadings) {
    const std::size_t at = s.find(heading);
    REQUIRE(at != std::string::npos);
    CHECK(at >= last);
    last = at;
  }
}

TEST_CASE("a static summary of a session without user turns says so") {
  TranscriptBuilder t;
  t.assistant("cron run").tool_round("terminal", R"({"command":"backup"})", "ok");
  const std::string s = build_static_summary(t.messages(), "", "", nullptr);
  CHECK(s.find(kNoUserTaskSentinel) != std::string::npos);
}

TEST_CASE("a static summary stays within 8,000 characters and carries the old summary") {
  TranscriptBuilder t;
  for (int i = 0; i < 40; ++i) {
    t.user("ask " + std::to_string(i) + " " + std::string(900, 'u'))
        .tool_round("terminal", R"({"command":"echo"})", "error: " + std::string(900, 'e'));
  }
  const std::string s = build_static_summary(
      t.messages(), "## Goal\nearlier goal " + std::string(5000, 'g'), "x", nullptr);
  CHECK(utf8_length(s) <= 8000);
  CHECK(s.find("## Previous Summary Snapshot\n## Goal\nearlier goal") != std::string::npos);
}

TEST_CASE("a static summary redacts what it quotes") {
  TranscriptBuilder t;
  t.user("use token sk-ABC to deploy")
      .tool_round("terminal", R"({"command":"deploy --key sk-ABC"})", "done");
  auto redact = [](std::string_view s) {
    std::string out(s);
    for (std::size_t at; (at = out.find("sk-ABC")) != std::string::npos;)
      out.replace(at, 6, "[REDACTED]");
    return out;
  };
  const std::string s = build_static_summary(t.messages(), "", "", redact);
  CHECK(s.find("sk-ABC") == std::string::npos);
  CHECK(s.find("[REDACTED]") != std::string::npos);
}

}  // namespace
}  // namespace hermes::internal
