// The repairs on any JSON-shaped message list: what providers refuse is dropped or
// mended, and what cannot be read is an error naming the index and the field.
#include <doctest/doctest.h>

#include <string>

#include "hermes/message_utils.hpp"
#include "unit/providers/fixture_files.hpp"

using namespace hermes;

namespace {

Json parse(const char* text) {
  return Json::parse(text);
}

// Each JSON form, by name, for the checks every one of them must pass.
struct JsonRepair {
  const char* name;
  Result<Json> (*fn)(const Json&);
};
const JsonRepair kRepairs[] = {
    {"sanitize_api_messages", [](const Json& j) { return sanitize_api_messages(j); }},
    {"repair_message_sequence", [](const Json& j) { return repair_message_sequence(j); }},
    {"drop_thinking_only_and_merge_users",
     [](const Json& j) { return drop_thinking_only_and_merge_users(j); }},
    {"close_interrupted_tool_sequence",
     [](const Json& j) { return close_interrupted_tool_sequence(j); }},
    {"sanitize_messages_surrogates", [](const Json& j) { return sanitize_messages_surrogates(j); }},
};

std::vector<std::string> roles_of(const Json& messages) {
  std::vector<std::string> roles;
  for (const Json& m : messages) roles.push_back(m.at("role").get<std::string>());
  return roles;
}

}  // namespace

TEST_CASE("unknown, internal and missing roles are dropped, never an error") {
  const Json in = parse(R"([
    {"role": "system", "content": "be brief"},
    {"role": "session_meta", "content": "host bookkeeping"},
    {"content": "no role at all"},
    {"role": 7, "content": "a role of the wrong type"},
    {"role": "developer", "content": "read as system"},
    {"role": "user", "content": "hi"},
    {"role": "tool", "content": "a result without an id"},
    {"role": "assistant", "content": "hello"}])");
  for (const auto& repair : {kRepairs[0], kRepairs[1], kRepairs[2]}) {
    CAPTURE(repair.name);
    const auto out = repair.fn(in);
    REQUIRE(out.ok());
    CHECK(roles_of(*out) == std::vector<std::string>{"system", "system", "user", "assistant"});
  }
}

TEST_CASE("empty, whitespace-only and null user messages are removed") {
  const Json in = parse(R"([
    {"role": "user", "content": "first"},
    {"role": "user", "content": ""},
    {"role": "assistant", "content": "ok"},
    {"role": "user", "content": "   \n"},
    {"role": "user", "content": null},
    {"role": "user", "content": [{"type": "text", "text": "  "}]},
    {"role": "user", "content": "second"}])");
  for (const auto& repair : {kRepairs[0], kRepairs[1], kRepairs[2]}) {
    CAPTURE(repair.name);
    const auto out = repair.fn(in);
    REQUIRE(out.ok());
    REQUIRE(out->size() == 3);
    CHECK((*out)[0]["content"] == "first");
    CHECK((*out)[2]["content"] == "second");
  }
  // A user message with only an image says something.
  const Json image = parse(R"([{"role": "user", "content": [
      {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}])");
  CHECK(sanitize_api_messages(image)->size() == 1);
}

TEST_CASE("adjacent user messages merge, text next to content parts included") {
  const Json in = parse(R"([
    {"role": "user", "content": "look at this"},
    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]},
    {"role": "user", "content": "and this"}])");
  for (const auto& repair : {kRepairs[0], kRepairs[1], kRepairs[2]}) {
    CAPTURE(repair.name);
    const auto out = repair.fn(in);
    REQUIRE(out.ok());
    REQUIRE(out->size() == 1);
    const Json& parts = (*out)[0]["content"];
    REQUIRE(parts.is_array());
    REQUIRE(parts.size() == 3);
    CHECK(parts[0] == Json{{"type", "text"}, {"text", "look at this"}});
    CHECK(parts[1]["type"] == "image_url");
    CHECK(parts[2] == Json{{"type", "text"}, {"text", "and this"}});
  }
  // Two texts join with a blank line.
  const auto texts = repair_message_sequence(
      parse(R"([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])"));
  REQUIRE(texts.ok());
  CHECK((*texts)[0]["content"] == "a\n\nb");
}

TEST_CASE("hermes's bookkeeping never reaches the wire") {
  const Json in = parse(R"([
    {"role": "user", "content": "stored", "api_content": "sent", "timestamp": 1781976577.5,
     "display_kind": "steer", "display_metadata": {"diff": "..."}, "_row_id": 12,
     "_scaffolding": false},
    {"role": "assistant", "content": "done", "finish_reason": "stop", "_private": {"x": 1},
     "provider_field": "kept"}])");
  const auto out = sanitize_api_messages(in);
  REQUIRE(out.ok());
  REQUIRE(out->size() == 2);
  CHECK((*out)[0] == Json{{"role", "user"}, {"content", "sent"}});
  CHECK((*out)[1] == Json{{"role", "assistant"}, {"content", "done"}, {"provider_field", "kept"}});
}

TEST_CASE("what cannot be read is an error naming the index and the field") {
  struct Bad {
    const char* json;
    const char* expected;
  };
  for (const Bad& bad :
       {Bad{R"("not a list")", "messages: must be a JSON list"},
        Bad{R"([{"role": "user", "content": "ok"}, 42])", "messages[1]: must be a JSON object"},
        Bad{R"([{"role": "user", "content": 5}])", "messages[0].content"},
        Bad{R"([{"role": "assistant", "tool_calls": "x"}])", "messages[0].tool_calls"},
        Bad{R"([{"role": "tool", "tool_call_id": 9, "content": "r"}])", "messages[0].tool_call_id"},
        Bad{R"([{"role": "user", "content": "x", "timestamp": "now"}])",
            "messages[0].timestamp"}}) {
    CAPTURE(bad.json);
    for (const auto& repair : {kRepairs[0], kRepairs[1], kRepairs[2]}) {
      CAPTURE(repair.name);
      const auto out = repair.fn(parse(bad.json));
      REQUIRE_FALSE(out.ok());
      CHECK(out.status().code() == StatusCode::kInvalidArgument);
      CHECK(out.status().message().find(bad.expected) != std::string::npos);
    }
  }
  // Only the list shape matters to the two that look at no field.
  CHECK_FALSE(close_interrupted_tool_sequence(parse(R"({"role": "tool"})")).ok());
  CHECK_FALSE(sanitize_messages_surrogates(parse("3")).ok());
  CHECK(sanitize_messages_surrogates(parse(R"([42, "x", null])")).ok());
}

TEST_CASE("tool call arguments are repaired the way upstream repairs them") {
  const Json cases = hermes::testing::read_json_fixture("messages/tool_call_arguments.json");
  REQUIRE(cases.size() >= 12);
  for (const Json& c : cases) {
    CAPTURE(c.at("name").get<std::string>());
    const std::string out = repair_tool_call_arguments(c.at("raw").get<std::string>());
    CHECK(out == c.at("out").get<std::string>());
    CHECK(Json::accept(out));
  }
}

TEST_CASE("the wire copy carries repaired arguments, compact and sorted") {
  const auto out = sanitize_api_messages(parse(R"([
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": "", "tool_calls": [
      {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"b\": 2, \"a\": [1"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "r"}])"));
  REQUIRE(out.ok());
  CHECK((*out)[1]["tool_calls"][0]["function"]["arguments"] == R"({"a":[1],"b":2})");
}

TEST_CASE("a transcript interrupted after a tool result is closed by an assistant turn") {
  std::vector<Message> messages{Message::user("run it"), Message::assistant("")};
  messages[1].tool_calls.push_back(ToolCall{"c1", "terminal", "{}", nullptr});
  messages.push_back(Message::tool("c1", "terminal", "ok"));
  CHECK(close_interrupted_tool_sequence(messages));
  REQUIRE(messages.size() == 4);
  CHECK(messages[3].role == Role::kAssistant);
  CHECK(messages[3].content == kInterruptedTurnText);
  CHECK_FALSE(close_interrupted_tool_sequence(messages));  // Already closed.

  std::vector<Message> answered{Message::user("q"), Message::tool("c1", "t", "r")};
  CHECK(close_interrupted_tool_sequence(answered, "  partial answer \n"));
  CHECK(answered.back().content == "partial answer");

  std::vector<Message> none;
  CHECK_FALSE(close_interrupted_tool_sequence(none));

  const Json in = parse(R"([{"role": "user", "content": "q"},
                            {"role": "tool", "tool_call_id": "c1", "content": "r"}])");
  const auto closed = close_interrupted_tool_sequence(in, "");
  REQUIRE(closed.ok());
  REQUIRE(closed->size() == 3);
  CHECK((*closed)[2] == Json{{"role", "assistant"}, {"content", "Operation interrupted."}});
  const auto open = close_interrupted_tool_sequence(parse(R"([{"role": "user", "content": "q"}])"));
  CHECK(open->size() == 1);
}

TEST_CASE("surrogates are replaced in every string of a message list") {
  // "\xED\xA0\x80" is a lone surrogate (U+D800) as byte-level models emit it.
  Json in = Json::array();
  Json message = {{"role", "assistant"},
                  {"content", std::string("a\xED\xA0\x80z")},
                  {"reasoning_details", Json::array({{{"text", std::string("r\xED\xB0\x80")}}})}};
  message["tool_calls"] = Json::array(
      {{{"id", std::string("c\xED\xA0\x80")},
        {"function", {{"name", "f"}, {"arguments", std::string("{\"q\":\"\xED\xA0\x80\"}")}}}}});
  in.push_back(message);
  const auto out = sanitize_messages_surrogates(in);
  REQUIRE(out.ok());
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK((*out)[0]["content"] == "a" + fffd + "z");
  CHECK((*out)[0]["reasoning_details"][0]["text"] == "r" + fffd);
  CHECK((*out)[0]["tool_calls"][0]["id"] == "c" + fffd);
  CHECK((*out)[0]["tool_calls"][0]["function"]["arguments"] == "{\"q\":\"" + fffd + "\"}");
  CHECK((*out)[0]["role"] == "assistant");
}
