#include "hermes/token_estimate.hpp"

#include <doctest/doctest.h>

#include <string>

namespace hermes {
namespace {

TEST_CASE("ASCII text costs a quarter token per character, rounded up") {
  CHECK(estimate_tokens_rough("") == 0);
  CHECK(estimate_tokens_rough("a") == 1);
  CHECK(estimate_tokens_rough("abcd") == 1);
  CHECK(estimate_tokens_rough("abcde") == 2);
  CHECK(estimate_tokens_rough(std::string(4000, 'x')) == 1000);
}

TEST_CASE("CJK, kana and Hangul characters cost a token each") {
  CHECK(estimate_tokens_rough("\xE4\xB8\xAD\xE6\x96\x87") == 2);  // 中文
  CHECK(estimate_tokens_rough("\xE3\x81\x8B\xE3\x81\xAA") == 2);  // かな
  CHECK(estimate_tokens_rough("\xED\x95\x9C\xEA\xB8\x80") == 2);  // 한글
  CHECK(estimate_tokens_rough("\xEF\xBC\xA1") == 1);              // Ａ (full width)
}

TEST_CASE("other scripts cost a token per four bytes, rounded once with the ASCII") {
  // "Привет" is 6 Cyrillic letters, 12 bytes: 3 tokens rather than the 2 of chars/4.
  CHECK(estimate_tokens_rough("\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82") == 3);
  // One ASCII byte and one two-byte letter: 3 bytes, one token.
  CHECK(estimate_tokens_rough("a\xC3\xA9") == 1);
  // Mixed: two ideographs plus 8 ASCII bytes.
  CHECK(estimate_tokens_rough("abcdefgh\xE4\xB8\xAD\xE6\x96\x87") == 4);
}

TEST_CASE("truncated UTF-8 at the end of a text is counted, not read past") {
  CHECK(estimate_tokens_rough(std::string("ab\xE4", 3)) == 1);
}

TEST_CASE("an image part costs a flat 1,600 tokens and its base64 data nothing") {
  Message with_image = Message::user("look");
  with_image.parts = Json::array(
      {Json{{"type", "text"}, {"text", "look"}},
       Json{{"type", "image_url"},
            {"image_url", {{"url", "data:image/png;base64," + std::string(400000, 'A')}}}}});
  Message without = Message::user("look");
  without.parts = Json::array({Json{{"type", "text"}, {"text", "look"}}});
  const int64_t diff =
      estimate_messages_tokens_rough({with_image}) - estimate_messages_tokens_rough({without});
  CHECK(diff == 1600);
}

TEST_CASE("messages are estimated in their wire form") {
  Message stored = Message::user("short");
  stored.api_content = "short" + std::string(400, 'z');  // What was really sent.
  stored.timestamp = 1700000000.0;
  stored.extra = Json{{"_compressed_summary", true}};
  Message plain = Message::user("short" + std::string(400, 'z'));
  CHECK(estimate_messages_tokens_rough({stored}) == estimate_messages_tokens_rough({plain}));
}

TEST_CASE("tool calls count towards the estimate") {
  Message a = Message::assistant("");
  a.tool_calls.push_back(
      ToolCall{"call_1", "read_file", "{\"path\":\"" + std::string(800, 'p') + "\"}", nullptr});
  CHECK(estimate_messages_tokens_rough({a}) > 200);
}

TEST_CASE("tool schemas cost name, description and parameters over four") {
  Json tools = Json::array({Json{
      {"type", "function"},
      {"function", {{"name", "abcd"}, {"description", "efgh"}, {"parameters", Json::object()}}}}});
  CHECK(estimate_tools_tokens_rough(tools) == (4 + 4 + 2) / 4);
  CHECK(estimate_tools_tokens_rough(Json::array({1, "x", nullptr})) == 0);
  CHECK(estimate_tools_tokens_rough(Json("not a list")) == 0);
}

TEST_CASE("a message list costs what its serialised wire form costs, escapes included") {
  Message user = Message::user(
      "Quote \" backslash \\ tab\t bell\x07 newline\n \xE4\xBD\xA0\xE5\xA5\xBD caf\xC3\xA9");
  Message broken = Message::user(std::string("broken \xC3(\xFF utf-8"));
  Message assistant = Message::assistant("");
  assistant.tool_calls = {ToolCall{"call_1", "add", R"({"a": 2, "b": [1.5, true, null]})", Json{{"n", 1.25}}}};
  Message tool = Message::tool("call_1", "add", R"({"sum": 42})");
  const std::vector<Message> messages = {user, broken, assistant, tool};
  // The reference: serialise the list and estimate the text.
  Json wire = Json::array();
  for (const Message& m : messages) {
    Json j = hermes::message_to_json(m);
    for (const char* key : {"timestamp", "display_kind", "finish_reason", "api_content"}) j.erase(key);
    wire.push_back(j);
  }
  CHECK(estimate_messages_tokens_rough(messages) ==
        estimate_tokens_rough(wire.dump(-1, ' ', false, Json::error_handler_t::replace)));
  CHECK(estimate_messages_tokens_rough(std::vector<Message>{}) == estimate_tokens_rough("[]"));
}

}  // namespace
}  // namespace hermes
