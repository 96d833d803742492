// The built-in tools through the loop over the two other wire formats, OpenAI Responses
// and Anthropic Messages: each carries tool calls and their results in its own shape.
#include <doctest/doctest.h>

#include "integration/tool_loop.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const MockToolCall kWrite{"call_write", "write_file",
                          Json{{"path", "notes/todo.txt"}, {"content", "ship it\n"}}.dump()};
const MockToolCall kEscape{"call_escape", "read_file", Json{{"path", "../outside.txt"}}.dump()};

// The text of a Responses input item answering `call_id`.
std::string responses_result(const Json& request, const std::string& call_id) {
  for (const Json& item : request["input"]) {
    if (item.value("type", "") == "function_call_output" && item.value("call_id", "") == call_id)
      return item["output"].get<std::string>();
  }
  FAIL("no function_call_output for " << call_id);
  return "";
}

// The text of an Anthropic tool_result block answering `tool_use_id`.
std::string anthropic_result(const Json& request, const std::string& tool_use_id) {
  for (const Json& message : request["messages"]) {
    if (!message["content"].is_array()) continue;
    for (const Json& block : message["content"]) {
      if (block.value("type", "") != "tool_result" || block.value("tool_use_id", "") != tool_use_id)
        continue;
      if (block["content"].is_string()) return block["content"].get<std::string>();
      std::string text;
      for (const Json& part : block["content"]) text += part.value("text", "");
      return text;
    }
  }
  FAIL("no tool_result for " << tool_use_id);
  return "";
}

Json parsed(const std::string& text) {
  std::optional<Json> j = internal::parse_json(text);
  REQUIRE_MESSAGE(j.has_value(), text);
  return *j;
}

void check_results(const ToolLoop& loop, const Json& written, const Json& escaped) {
  CHECK(written["success"] == true);
  CHECK(written["created"] == true);
  CHECK(read_text(loop.project.file("notes/todo.txt")) == "ship it\n");
  CHECK(is_error_result(escaped));
  CHECK(escaped["error"].get<std::string>().find("outside the directories") != std::string::npos);
}

}  // namespace

TEST_CASE("write_file and a refused read_file round-trip through the Responses wire format") {
  ToolLoop loop({"file"});
  loop.options.provider.api_mode = "codex_responses";
  loop.server.enqueue(responses::tool_calls({kWrite, kEscape}, /*stream=*/true));
  loop.server.enqueue(responses::text("Written.", /*stream=*/true));
  ConversationResult r = loop.agent().run_conversation("Note that we ship it.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Written.");

  const Json next = loop.server.requests().back().json();
  check_results(loop, parsed(responses_result(next, "call_write")),
                parsed(responses_result(next, "call_escape")));
}

TEST_CASE("write_file and a refused read_file round-trip through the Anthropic wire format") {
  ToolLoop loop({"file"});
  loop.options.provider.api_mode = "anthropic_messages";
  loop.options.provider.provider = "anthropic";
  loop.options.provider.model = "claude-sonnet-4-5";
  loop.server.enqueue(anthropic::tool_calls({kWrite, kEscape}, /*stream=*/true));
  loop.server.enqueue(anthropic::text("Written.", /*stream=*/true));
  ConversationResult r = loop.agent().run_conversation("Note that we ship it.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Written.");

  const Json next = loop.server.requests().back().json();
  check_results(loop, parsed(anthropic_result(next, "call_write")),
                parsed(anthropic_result(next, "call_escape")));
}
