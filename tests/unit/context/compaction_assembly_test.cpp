#include "context/compaction_assembly.hpp"

#include <doctest/doctest.h>

#include "context/message_parts.hpp"
#include "context/summary_markers.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::fixture_text;
using testing::transcript_problem;
using testing::TranscriptBuilder;

Message tool_call_message(const std::string& id) {
  Message a = Message::assistant("");
  a.tool_calls.push_back(ToolCall{id, "terminal", "{}", nullptr});
  return a;
}

AssemblyParts parts(std::vector<Message> head, std::vector<Message> tail) {
  return AssemblyParts{std::move(head), std::move(tail), with_summary_prefix("## Goal\nbody")};
}

bool flagged(const Message& m) {
  return m.extra.is_object() && m.extra.value("_compressed_summary", false);
}

TEST_CASE("the summary takes the role that keeps turns alternating") {
  struct Row {
    const char* name;
    std::vector<Message> head;
    std::vector<Message> tail;
    Role role;
    bool merged;
  };
  const std::vector<Row> rows = {
      {"after an assistant, before an assistant",
       {Message::user("u"), Message::assistant("a")},
       {Message::assistant("t"), Message::user("live")},
       Role::kUser,
       false},
      {"after a user, before a user",
       {Message::user("u")},
       {Message::user("live")},
       Role::kAssistant,
       false},
      {"after a tool result",
       {Message::user("u"), tool_call_message("c1"), Message::tool("c1", "terminal", "r")},
       {Message::assistant("t"), Message::user("live")},
       Role::kUser,
       false},
      {"after a tool result, before a user: flipped",
       {Message::user("u"), tool_call_message("c1"), Message::tool("c1", "terminal", "r")},
       {Message::user("live")},
       Role::kAssistant,
       false},
      {"no head: user leads",
       {},
       {Message::assistant("t"), Message::user("live")},
       Role::kUser,
       false},
      {"only a system head: user leads",
       {Message::system("s")},
       {Message::assistant("t"), Message::user("live")},
       Role::kUser,
       false},
      {"user leads into a user: merged before it",
       {},
       {Message::user("live"), Message::assistant("a")},
       Role::kUser,
       true},
      {"after an assistant, before a user: merged",
       {Message::user("u"), Message::assistant("a")},
       {Message::user("live")},
       Role::kUser,
       true},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    const Assembly a = assemble_compacted(parts(row.head, row.tail));
    CHECK(a.summary_role == row.role);
    CHECK(a.merged_into_tail == row.merged);
    CHECK(transcript_problem(a.messages) == "");
    CHECK(a.messages.size() == row.head.size() + row.tail.size() + (row.merged ? 0 : 1));
  }
}

TEST_CASE("a standalone summary has the prefix, the end marker and the metadata key") {
  const Assembly a = assemble_compacted(parts({Message::user("u"), Message::assistant("a")},
                                              {Message::assistant("t"), Message::user("live")}));
  const Message& s = a.messages[2];
  CHECK(s.content.rfind(fixture_text("summary_prefix") + "\n## Goal\nbody", 0) == 0);
  CHECK(s.content.size() > fixture_text("summary_end_marker").size());
  CHECK(s.content.substr(s.content.size() - fixture_text("summary_end_marker").size() - 2) ==
        "\n\n" + fixture_text("summary_end_marker"));
  CHECK(flagged(s));
  CHECK(message_to_json(s).at("_compressed_summary") == true);
}

TEST_CASE("a summary merged into the tail keeps that message's text as marked prior context") {
  const Assembly a = assemble_compacted(
      parts({Message::user("u"), Message::assistant("a")}, {Message::user("live")}));
  REQUIRE(a.messages.size() == 3);
  const std::string& c = a.messages[2].content;
  CHECK(c.rfind(fixture_text("merged_prior_context_header") + "\nlive\n\n" +
                    fixture_text("merged_summary_delimiter") + "\n\n" +
                    fixture_text("summary_prefix"),
                0) == 0);
  CHECK(c.substr(c.size() - fixture_text("summary_end_marker").size()) ==
        fixture_text("summary_end_marker"));
  CHECK(flagged(a.messages[2]));
}

TEST_CASE("a leading summary merged into the live request keeps the request after the end marker") {
  Message live = Message::user("fix the parser");
  live.api_content = "fix the parser\n[memory recall]";
  const Assembly a = assemble_compacted(parts({}, {live, Message::assistant("on it")}));
  const std::string& c = a.messages[0].content;
  CHECK(c.rfind(fixture_text("summary_prefix"), 0) == 0);
  CHECK(c.substr(c.size() - std::string("\n\nfix the parser").size()) == "\n\nfix the parser");
  CHECK(c.find(fixture_text("summary_end_marker") + "\n\nfix the parser") != std::string::npos);
  CHECK(a.messages[0].api_content.empty());  // The stored bytes no longer match what was sent.
}

TEST_CASE("a summary merged into multimodal content becomes a text part") {
  Message live = Message::user("see this");
  live.parts =
      Json::array({Json{{"type", "text"}, {"text", "see this"}},
                   Json{{"type", "image_url"}, {"image_url", {{"url", "https://x/y.png"}}}}});
  const Assembly a = assemble_compacted(parts({}, {live, Message::assistant("ok")}));
  REQUIRE(a.messages[0].parts.is_array());
  CHECK(a.messages[0].parts.size() == 3);
  CHECK(a.messages[0].parts[0].at("text").get<std::string>().rfind(fixture_text("summary_prefix"),
                                                                   0) == 0);
  CHECK(has_image_parts(a.messages[0]));
}

TEST_CASE("a system message heading the list gets the compaction note once") {
  Assembly a = assemble_compacted(parts({Message::system("You are helpful.")},
                                        {Message::assistant("t"), Message::user("live")}));
  CHECK(a.messages[0].content == "You are helpful.\n\n" + fixture_text("system_note"));
  a = assemble_compacted(parts({a.messages[0]}, {Message::assistant("t"), Message::user("live")}));
  CHECK(a.messages[0].content == "You are helpful.\n\n" + fixture_text("system_note"));
}

TEST_CASE("tool pairs are repaired: orphans dropped, missing results stubbed") {
  const Json fixture = testing::load_fixture("old_store_orphans.json");
  auto messages = messages_from_json(fixture.at("messages"));
  REQUIRE(messages.ok());
  const auto repaired = sanitize_tool_pairs(*messages, MissingResultRepair::kStubResult);
  CHECK(transcript_problem(repaired) == "");
  // call_b had no result: it is answered with the stub right after call_a's result.
  REQUIRE(repaired[1].tool_calls.size() == 2);
  CHECK(repaired[2].tool_call_id == "call_a");
  CHECK(repaired[3].tool_call_id == "call_b");
  CHECK(repaired[3].content == fixture_text("summarized_result_stub"));
  // The orphans and the second result for call_c are gone; nothing else is.
  for (const auto& m : repaired) {
    CHECK(m.tool_call_id != "call_lost_1");
    CHECK(m.tool_call_id != "call_zzz");
    CHECK(m.content != "a second result for the same call");
  }
  CHECK(repaired.size() == messages->size() - 3 + 1);
  CHECK(repaired.back().content == "Now run the whole suite again please.");
}

TEST_CASE("in drop mode an unanswered call is removed, and an emptied message says so") {
  TranscriptBuilder t;
  t.user("go").add(tool_call_message("lonely")).user("next");
  const auto repaired = sanitize_tool_pairs(t.build(), MissingResultRepair::kDropCall);
  CHECK(repaired[1].tool_calls.empty());
  CHECK(repaired[1].content == fixture_text("tool_call_removed"));
  CHECK(transcript_problem(repaired) == "");
}

TEST_CASE("images before the newest image-bearing user message are stripped") {
  auto with_image = [](const std::string& text) {
    Message m = Message::user(text);
    m.parts =
        Json::array({Json{{"type", "text"}, {"text", text}},
                     Json{{"type", "input_image"}, {"image_url", "data:image/png;base64,AAAA"}}});
    m.api_content = text + " (sent)";
    return m;
  };
  std::vector<Message> m = {with_image("first"), Message::assistant("a"), with_image("second"),
                            Message::assistant("b")};
  m = strip_historical_media(std::move(m));
  CHECK_FALSE(has_image_parts(m[0]));
  CHECK(m[0].parts[1].at("text") == fixture_text("image_stripped"));
  CHECK(m[0].content == "first\n" + fixture_text("image_stripped"));
  CHECK(m[0].api_content.empty());
  CHECK(has_image_parts(m[2]));
}

}  // namespace
}  // namespace hermes::internal
