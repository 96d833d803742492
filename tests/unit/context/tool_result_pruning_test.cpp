#include "context/tool_result_pruning.hpp"

#include <doctest/doctest.h>

#include "context/message_parts.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::bulk;
using testing::fixture_text;
using testing::TranscriptBuilder;

PruneSettings keep_last(int n) {
  return PruneSettings{n, std::nullopt, 200};
}

TEST_CASE("older copies of a repeated tool result become a back-reference") {
  const std::string file = bulk("config.py", 3000);
  TranscriptBuilder t;
  t.user("read it three times")
      .tool_round("read_file", R"({"path":"config.py"})", file)
      .tool_round("read_file", R"({"path":"config.py"})", file)
      .tool_round("read_file", R"({"path":"config.py"})", file)
      .assistant("done");
  // Everything protected: only deduplication, which loses nothing, may act there.
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(100));
  CHECK(r.messages[2].content == fixture_text("duplicate_tool_output"));
  CHECK(r.messages[4].content == fixture_text("duplicate_tool_output"));
  CHECK(r.messages[6].content == file);
  CHECK(r.pruned == 2);
}

TEST_CASE("short repeated results are left alone") {
  TranscriptBuilder t;
  t.user("x")
      .tool_round("terminal", R"({"command":"ls"})", "a.txt")
      .tool_round("terminal", R"({"command":"ls"})", "a.txt");
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(0));
  CHECK(r.messages[2].content == "a.txt");
  CHECK(r.messages[4].content == "a.txt");
}

TEST_CASE("old large results outside the protected tail become one-line descriptions") {
  TranscriptBuilder t;
  t.user("go")
      .tool_round("terminal", R"({"command":"make"})",
                  "{\"exit_code\": 2}\n" + bulk("build log", 5000))
      .tool_round("read_file", R"({"path":"src/a.cpp"})", bulk("a.cpp", 2000))
      .tool_round("read_file", R"({"path":"src/b.cpp"})", bulk("b.cpp", 2000))
      .assistant("summary so far");
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(3));
  CHECK(r.messages[2].content == "[terminal] ran `make` -> exit 2, 2 lines output");
  CHECK(r.messages[4].content == "[read_file] read src/a.cpp from line 1 (2,000 chars)");
  CHECK(r.messages[6].content == bulk("b.cpp", 2000));  // Inside the last three messages.
  CHECK(r.pruned == 2);
}

TEST_CASE("a token budget protects as many recent messages as fit, at least the floor") {
  TranscriptBuilder t;
  t.user("go");
  for (int i = 0; i < 6; ++i)
    t.tool_round("read_file", R"({"path":"f)" + std::to_string(i) + R"("})",
                 bulk("file" + std::to_string(i), 4000));
  t.assistant("done");
  // About 1,000 tokens per result: 1,500 tokens hold the last round only (three messages,
  // the floor's size too); 2,500 hold the last two rounds, more than the floor.
  PruneResult r = prune_old_tool_results(t.messages(), PruneSettings{3, 1500, 200});
  CHECK(r.messages[10].content.rfind("[read_file] read f4", 0) == 0);
  CHECK(r.messages[12].content == bulk("file5", 4000));
  r = prune_old_tool_results(t.messages(), PruneSettings{3, 2500, 200});
  CHECK(r.messages[8].content.rfind("[read_file] read f3", 0) == 0);
  CHECK(r.messages[10].content == bulk("file4", 4000));
  // A tiny budget still leaves the floor of three messages alone.
  r = prune_old_tool_results(t.messages(), PruneSettings{3, 1, 200});
  CHECK(r.messages[12].content == bulk("file5", 4000));
  CHECK(r.messages[10].content.rfind("[read_file] read f4", 0) == 0);
}

TEST_CASE("results already reduced to a line are not described again") {
  TranscriptBuilder t;
  t.user("go").tool_round("web_search", R"({"query":"x"})",
                          "[web_search] query='x' (9,999 chars result)");
  t.tool_round("terminal", "{}",
               std::string(fixture_text("duplicate_tool_output")) + std::string(300, ' '));
  t.assistant("ok");
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(0));
  CHECK(r.messages[2].content == "[web_search] query='x' (9,999 chars result)");
  CHECK(r.messages[4].content.rfind("[Duplicate tool output", 0) == 0);
}

TEST_CASE("oversized tool-call arguments shrink inside valid JSON") {
  const std::string args =
      Json{{"path", "/srv/notes.md"},
           {"content", std::string(3000, 'w')},
           {"meta", {{"tags", Json::array({std::string(400, 't'), "short"})}, {"n", 7}}}}
          .dump();
  TranscriptBuilder t;
  t.user("write it").tool_round("write_file", args, "ok").assistant("written");
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(1));
  const std::string& shrunk = r.messages[1].tool_calls[0].arguments;
  const Json parsed = Json::parse(shrunk);  // Throws, failing the test, when invalid.
  CHECK(parsed.at("path") == "/srv/notes.md");
  CHECK(parsed.at("content") == std::string(200, 'w') + "...[truncated]");
  CHECK(parsed.at("meta").at("tags").at(0) == std::string(200, 't') + "...[truncated]");
  CHECK(parsed.at("meta").at("tags").at(1) == "short");
  CHECK(parsed.at("meta").at("n") == 7);
}

TEST_CASE("arguments that are not JSON are never cut") {
  const std::string broken = "{\"content\": \"" + std::string(900, 'q');
  CHECK(shrink_tool_call_arguments(broken) == broken);
  CHECK(shrink_tool_call_arguments("{\"a\": \"short\"}") == "{\"a\": \"short\"}");
}

TEST_CASE("shrinking keeps multi-byte characters whole and the key order") {
  std::string cjk;
  for (int i = 0; i < 300; ++i) cjk += "\xE8\xAA\x9E";  // 語
  const std::string out = shrink_tool_call_arguments("{\"z\": 1, \"text\": \"" + cjk + "\"}");
  CHECK(out.rfind("{\"z\":1,\"text\":\"", 0) == 0);
  const Json parsed = Json::parse(out);
  std::string expected;
  for (int i = 0; i < 200; ++i) expected += "\xE8\xAA\x9E";
  CHECK(parsed.at("text") == expected + "...[truncated]");
}

TEST_CASE("old screenshots in tool results give way to a placeholder, the newest stays") {
  auto screenshot = [](const std::string& id) {
    Message m = Message::tool(id, "browser_vision", "");
    m.parts = Json::array(
        {Json{{"type", "text"}, {"text", "page"}},
         Json{{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64,AAAA"}}}}});
    m.content = "page";
    return m;
  };
  TranscriptBuilder t;
  t.user("look");
  Message call = Message::assistant("");
  call.tool_calls = {ToolCall{"s1", "browser_vision", "{}", nullptr}};
  t.add(call).add(screenshot("s1"));
  call.tool_calls = {ToolCall{"s2", "browser_vision", "{}", nullptr}};
  t.add(call).add(screenshot("s2"));
  t.assistant("seen").user("again").assistant("sure");
  const PruneResult r = prune_old_tool_results(t.messages(), keep_last(0));
  CHECK_FALSE(has_image_parts(r.messages[2]));
  CHECK(r.messages[2].parts.at(1).at("text") == fixture_text("screenshot_removed"));
  CHECK(has_image_parts(r.messages[4]));
}

TEST_CASE("pruning never touches the caller's messages") {
  TranscriptBuilder t;
  t.user("go").tool_round("terminal", R"({"command":"make"})", bulk("log", 3000)).assistant("ok");
  const auto before = t.build();
  prune_old_tool_results(t.messages(), keep_last(0));
  CHECK(t.messages() == before);
}

}  // namespace
}  // namespace hermes::internal
