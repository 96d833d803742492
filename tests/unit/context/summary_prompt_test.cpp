#include "context/summary_prompt.hpp"

#include <doctest/doctest.h>

#include "context/text_cut.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::TranscriptBuilder;

std::size_t position(const std::string& text, std::string_view what) {
  const std::size_t at = text.find(what);
  CHECK_MESSAGE(at != std::string::npos, what);
  return at;
}

TEST_CASE("turns are written out with role labels and tool calls") {
  TranscriptBuilder t;
  t.user("please build")
      .tool_round("terminal", R"({"command":"make"})", "built")
      .assistant("<think>plan</think>Done.");
  const std::string text = serialize_for_summary(t.messages(), nullptr);
  CHECK(text ==
        "[USER]: please build\n\n"
        "[ASSISTANT]: \n[Tool calls:\n  terminal({\"command\":\"make\"})\n]\n\n"
        "[TOOL RESULT call_1]: built\n\n"
        "[ASSISTANT]: Done.");
}

TEST_CASE("long messages and long arguments are cut for the summariser") {
  TranscriptBuilder t;
  const std::string big = std::string(4000, 'h') + std::string(3000, 'm') + std::string(1500, 't');
  t.user(big).tool_round("write_file", "{\"content\":\"" + std::string(2000, 'a') + "\"}", "ok");
  const std::string text = serialize_for_summary(t.messages(), nullptr);
  CHECK(text.find("[USER]: " + std::string(4000, 'h') + "\n...[truncated]...\n" +
                  std::string(1500, 't')) == 0);
  CHECK(text.find('m') == std::string::npos);
  CHECK(text.find("write_file({\"content\":\"" + std::string(1200 - 12, 'a') + "...)") !=
        std::string::npos);
}

TEST_CASE("secrets are redacted, media directives and images turned into labels") {
  TranscriptBuilder t;
  Message u = Message::user("key sk-SECRET123 and MEDIA:/tmp/cat.png here");
  u.parts = Json::array(
      {Json{{"type", "text"}, {"text", "key sk-SECRET123 and MEDIA:/tmp/cat.png here"}},
       Json{{"type", "image_url"}, {"image_url", {{"url", "https://img.example/a.png"}}}},
       Json{{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64,AAAA"}}}},
       Json{{"type", "input_audio"}}});
  t.add(u).tool_round("terminal", R"({"env":"sk-SECRET123"})", "token sk-SECRET123");
  auto redact = [](std::string_view s) {
    std::string out(s);
    for (std::size_t at; (at = out.find("sk-SECRET123")) != std::string::npos;)
      out.replace(at, 12, "[REDACTED]");
    return out;
  };
  const std::string text = serialize_for_summary(t.messages(), redact);
  CHECK(text.find("sk-SECRET") == std::string::npos);
  CHECK(text.find("[REDACTED]") != std::string::npos);
  CHECK(text.find("MEDIA:") == std::string::npos);
  CHECK(text.find("[media attachment]") != std::string::npos);
  CHECK(text.find("[image: https://img.example/a.png]") != std::string::npos);
  CHECK(text.find("[image]") != std::string::npos);
  CHECK(text.find("[input_audio]") != std::string::npos);
  CHECK(text.find("base64") == std::string::npos);
}

TEST_CASE("the summariser input is bounded, keeping its start and its end") {
  const std::string text = std::string(100000, 's') + std::string(100000, 'e');
  const std::string bounded = bound_summary_input(text, 160000);
  CHECK(utf8_length(bounded) <= 160000);
  CHECK(bounded.front() == 's');
  CHECK(bounded.back() == 'e');
  CHECK(bounded.find("characters left out of the middle") != std::string::npos);
  CHECK(bound_summary_input("short") == "short");
}

TEST_CASE("memory-provider context is capped around a marker") {
  CHECK(sanitize_memory_context("  \n ").empty());
  CHECK(sanitize_memory_context(" facts ") == "facts");
  const std::string capped =
      sanitize_memory_context(std::string(5000, 'a') + std::string(5000, 'b'));
  CHECK(capped == std::string(4000, 'a') + "\n...[memory provider context truncated]...\n" +
                      std::string(1500, 'b'));
}

TEST_CASE("a first summary request carries the template headings in order") {
  SummaryPromptInputs in;
  in.turns = "[USER]: hi";
  in.budget_tokens = 2345;
  const std::string p = build_summary_prompt(in);
  std::size_t last = position(p, "TURNS TO SUMMARIZE:\n[USER]: hi");
  for (auto heading : kSummaryHeadings) {
    const std::size_t at = position(p, std::string("\n") + std::string(heading) + "\n");
    CHECK(at > last);
    last = at;
  }
  CHECK(p.find("Target ~2345 tokens.") > last);
  CHECK(p.find("PREVIOUS SUMMARY:") == std::string::npos);
  CHECK(p.find("FOCUS TOPIC") == std::string::npos);
  CHECK(p.find("DATES:") == std::string::npos);
}

TEST_CASE("a later summary request updates the previous summary") {
  SummaryPromptInputs in;
  in.turns = "[USER]: more";
  in.previous_summary = "## Goal\nthe old goal";
  in.budget_tokens = 2000;
  const std::string p = build_summary_prompt(in);
  CHECK(position(p, "PREVIOUS SUMMARY:\n## Goal\nthe old goal") <
        position(p, "NEW TURNS TO INCORPORATE:\n[USER]: more"));
  CHECK(p.find("TURNS TO SUMMARIZE:") == std::string::npos);
  CHECK(p.find("continuing its numbering") != std::string::npos);
}

TEST_CASE("a focus topic gets most of the summary budget") {
  SummaryPromptInputs in;
  in.turns = "[USER]: x";
  in.focus_topic = "database migration";
  const std::string p = build_summary_prompt(in);
  CHECK(p.find("FOCUS TOPIC: \"database migration\"") != std::string::npos);
  CHECK(p.find("60-70% of the summary budget") != std::string::npos);
}

TEST_CASE("memory context is embedded as one escaped JSON string") {
  SummaryPromptInputs in;
  in.turns = "[USER]: x";
  in.memory_context = "likes <b>tea</b> & \"coffee\"";
  const std::string p = build_summary_prompt(in);
  CHECK(p.find("<memory-provider-context>\n\"likes \\u003cb\\u003etea\\u003c/b\\u003e \\u0026 "
               "\\\"coffee\\\"\"\n"
               "</memory-provider-context>") != std::string::npos);
}

TEST_CASE("a session without user turns asks for the no-user sentinel") {
  SummaryPromptInputs in;
  in.turns = "[ASSISTANT]: cron work";
  in.has_user_turn = false;
  in.today = "2026-05-01";
  const std::string p = build_summary_prompt(in);
  CHECK(p.find("None. This session contains no user-authored turns.") != std::string::npos);
  CHECK(p.find("Today is 2026-05-01") != std::string::npos);
}

TEST_CASE("an automatic focus quotes the last three user messages, oldest first") {
  TranscriptBuilder t;
  t.user("one")
      .assistant("a")
      .user("two  \n words")
      .assistant("b")
      .user("three")
      .user(std::string(400, 'x'));
  const std::string focus = derive_auto_focus_topic(t.messages(), nullptr);
  CHECK(focus.rfind("Recent user focus:\n- two words\n- three\n- xxx", 0) == 0);
  CHECK(focus.find("one") == std::string::npos);
  CHECK(derive_auto_focus_topic({Message::assistant("x")}, nullptr).empty());
}

}  // namespace
}  // namespace hermes::internal
