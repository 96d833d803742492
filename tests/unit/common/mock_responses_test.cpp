// The scripted responses must have the exact shapes real Chat Completions servers send,
// or provider tests against the mock server prove nothing.
#include "support/mock_responses.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

using hermes::Json;
using hermes::testing::MockResponse;
using hermes::testing::MockToolCall;
using hermes::testing::MockUsage;
namespace chat = hermes::testing::chat;

namespace {

const std::string kResponseFixtures = HERMES_FIXTURES_DIR "/mock_server/";

std::string header_of(const MockResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

// The JSON payload of every event before the final "data: [DONE]", which is checked.
std::vector<Json> stream_payloads(const MockResponse& response) {
  REQUIRE(response.body.empty());
  REQUIRE_FALSE(response.chunks.empty());
  CHECK(response.chunks.back() == "data: [DONE]\n\n");
  std::vector<Json> payloads;
  for (std::size_t i = 0; i + 1 < response.chunks.size(); ++i) {
    const std::string& event = response.chunks[i];
    REQUIRE(event.rfind("data: ", 0) == 0);
    REQUIRE(event.size() > 8);
    REQUIRE(event.substr(event.size() - 2) == "\n\n");
    payloads.push_back(Json::parse(event.substr(6, event.size() - 8)));  // Throws if invalid.
  }
  return payloads;
}

const Json& delta_of(const Json& chunk) {
  return chunk["choices"][0]["delta"];
}

void check_usage_chunk(const Json& chunk, const MockUsage& usage) {
  CHECK(chunk["choices"] == Json::array());
  CHECK(chunk["usage"]["prompt_tokens"] == usage.prompt_tokens);
  CHECK(chunk["usage"]["completion_tokens"] == usage.completion_tokens);
  CHECK(chunk["usage"]["total_tokens"] == usage.prompt_tokens + usage.completion_tokens);
  CHECK(chunk["usage"]["prompt_tokens_details"]["cached_tokens"] == usage.cached_tokens);
  CHECK(chunk["usage"]["completion_tokens_details"]["reasoning_tokens"] == usage.reasoning_tokens);
}

}  // namespace

TEST_CASE("a non-streamed text answer has the Chat Completions shape") {
  MockUsage usage{88, 17, 4, 2};
  MockResponse response = chat::text("Bonjour !", false, usage, "length");
  CHECK(response.status == 200);
  CHECK(response.chunks.empty());
  CHECK(header_of(response, "Content-Type") == "application/json");

  Json body = Json::parse(response.body);
  CHECK(body["id"].get<std::string>().rfind("chatcmpl-", 0) == 0);
  CHECK(body["object"] == "chat.completion");
  CHECK(body["created"].is_number_integer());
  CHECK(body["model"].is_string());
  CHECK(body["system_fingerprint"].is_string());
  REQUIRE(body["choices"].size() == 1);
  const Json& choice = body["choices"][0];
  CHECK(choice["index"] == 0);
  CHECK(choice["logprobs"].is_null());
  CHECK(choice["finish_reason"] == "length");
  CHECK(choice["message"] ==
        Json{{"role", "assistant"}, {"content", "Bonjour !"}, {"refusal", nullptr}});
  CHECK(body["usage"] == Json{{"prompt_tokens", 88},
                              {"completion_tokens", 17},
                              {"total_tokens", 105},
                              {"prompt_tokens_details", {{"cached_tokens", 4}}},
                              {"completion_tokens_details", {{"reasoning_tokens", 2}}}});
}

TEST_CASE("a non-streamed tool-call answer has null content and every call") {
  MockResponse response = chat::tool_calls(
      {{"call_A1", "get_weather", R"({"city":"Paris"})"}, {"", "get_time", "{}"}}, false);
  Json body = Json::parse(response.body);
  const Json& choice = body["choices"][0];
  CHECK(choice["finish_reason"] == "tool_calls");
  CHECK(choice["message"]["content"].is_null());
  const Json& calls = choice["message"]["tool_calls"];
  REQUIRE(calls.size() == 2);
  CHECK(calls[0] ==
        Json{{"id", "call_A1"},
             {"type", "function"},
             {"function", {{"name", "get_weather"}, {"arguments", R"({"city":"Paris"})"}}}});
  CHECK(calls[1]["id"].get<std::string>().rfind("call_", 0) == 0);
  CHECK(calls[1]["id"] != calls[0]["id"]);
  CHECK(calls[1]["function"]["name"] == "get_time");
}

TEST_CASE("generated tool-call ids differ between responses") {
  MockResponse first = chat::tool_calls({{"", "f", "{}"}}, false);
  MockResponse second = chat::tool_calls({{"", "f", "{}"}}, false);
  auto id_of = [](const MockResponse& r) {
    return Json::parse(r.body)["choices"][0]["message"]["tool_calls"][0]["id"];
  };
  CHECK(id_of(first) != id_of(second));
}

TEST_CASE("the keys of a response come in the order real servers send them") {
  MockResponse response = chat::text("hi", false);
  CHECK(response.body.rfind(R"({"id":"chatcmpl-)", 0) == 0);
  CHECK(response.body.find(R"("object")") < response.body.find(R"("choices")"));
}

TEST_CASE("a streamed text answer follows the canonical chunk sequence") {
  MockUsage usage{19, 6, 0, 0};
  MockResponse response = chat::text("Bonjour, comment ça va ?", true, usage);
  CHECK(header_of(response, "Content-Type") == "text/event-stream");
  std::vector<Json> chunks = stream_payloads(response);
  // Role, five words, finish, usage.
  REQUIRE(chunks.size() == 8);

  for (const Json& chunk : chunks) {
    CHECK(chunk["id"] == chunks[0]["id"]);
    CHECK(chunk["object"] == "chat.completion.chunk");
  }
  CHECK(delta_of(chunks[0]) == Json{{"role", "assistant"}, {"content", ""}});
  std::string text;
  for (std::size_t i = 1; i <= 5; ++i) {
    CHECK(delta_of(chunks[i]).size() == 1);
    CHECK(chunks[i]["choices"][0]["finish_reason"].is_null());
    CHECK(chunks[i]["usage"].is_null());
    text += delta_of(chunks[i])["content"].get<std::string>();
  }
  CHECK(text == "Bonjour, comment ça va ?");
  CHECK(delta_of(chunks[1])["content"] == "Bonjour,");
  CHECK(delta_of(chunks[2])["content"] == " comment");
  CHECK(delta_of(chunks[6]) == Json::object());
  CHECK(chunks[6]["choices"][0]["finish_reason"] == "stop");
  CHECK(chunks[6]["usage"].is_null());
  check_usage_chunk(chunks[7], usage);
}

TEST_CASE("streamed tool calls open with id and name, then fragments rebuild the arguments") {
  const std::string paris = R"({"city": "Paris", "unit": "celsius", "note": "a \"quoted\" word"})";
  const std::string tokyo = R"({"city": "Tokyo"})";
  MockResponse response = chat::tool_calls(
      {{"call_P", "get_weather", paris}, {"call_T", "get_weather", tokyo}}, true, "Checking.");
  std::vector<Json> chunks = stream_payloads(response);

  CHECK(delta_of(chunks[0]) == Json{{"role", "assistant"}, {"content", ""}});
  CHECK(delta_of(chunks[1]) == Json{{"content", "Checking."}});
  std::vector<std::string> ids(2);
  std::vector<std::string> arguments(2);
  std::vector<int> fragments(2, 0);
  std::size_t i = 2;
  for (; delta_of(chunks[i]).contains("tool_calls"); ++i) {
    const Json& call = delta_of(chunks[i])["tool_calls"][0];
    auto index = call["index"].get<std::size_t>();
    REQUIRE(index < 2);
    if (call.contains("id")) {
      CHECK(arguments[index].empty());  // The opening fragment comes first.
      CHECK(call["type"] == "function");
      CHECK(call["function"]["name"] == "get_weather");
      CHECK(call["function"]["arguments"] == "");
      ids[index] = call["id"];
    } else {
      CHECK_FALSE(call["function"].contains("name"));
      arguments[index] += call["function"]["arguments"].get<std::string>();
      ++fragments[index];
    }
  }
  CHECK(ids == std::vector<std::string>{"call_P", "call_T"});
  CHECK(arguments[0] == paris);
  CHECK(arguments[1] == tokyo);
  CHECK(fragments[0] > 2);
  CHECK(fragments[1] > 1);
  REQUIRE(i + 2 == chunks.size());
  CHECK(chunks[i]["choices"][0]["finish_reason"] == "tool_calls");
  check_usage_chunk(chunks[i + 1], MockUsage{});
}

TEST_CASE("a streamed tool call without text opens with null content") {
  std::vector<Json> chunks = stream_payloads(chat::tool_calls({{"c", "f", ""}}, true));
  CHECK(delta_of(chunks[0]) == Json{{"role", "assistant"}, {"content", nullptr}});
  // An empty argument string is sent only in the opening fragment.
  CHECK(delta_of(chunks[1])["tool_calls"][0]["function"]["arguments"] == "");
  CHECK(chunks[2]["choices"][0]["finish_reason"] == "tool_calls");
}

TEST_CASE("argument fragments never split a UTF-8 character") {
  std::string arguments = R"({"text": ")";
  for (int i = 0; i < 50; ++i) arguments += "é→😀";
  arguments += R"("})";
  std::vector<Json> chunks = stream_payloads(chat::tool_calls({{"c", "f", arguments}}, true));
  std::string rebuilt;
  for (const Json& chunk : chunks) {  // Json::parse above rejects invalid UTF-8.
    if (!chunk["choices"].empty() && delta_of(chunk).contains("tool_calls")) {
      rebuilt += delta_of(chunk)["tool_calls"][0]["function"]["arguments"].get<std::string>();
    }
  }
  CHECK(rebuilt == arguments);
}

TEST_CASE("broken argument JSON is sent as it is") {
  MockResponse response = chat::tool_calls({{"c", "f", R"({"a": 1,)"}}, false);
  Json body = Json::parse(response.body);
  CHECK(body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == R"({"a": 1,)");
}

TEST_CASE("an error response has the OpenAI error body and the given headers") {
  MockResponse response =
      chat::error(429, "Rate limit reached", "rate_limit_exceeded", {{"Retry-After", "2"}});
  CHECK(response.status == 429);
  CHECK(header_of(response, "Retry-After") == "2");
  Json body = Json::parse(response.body);
  CHECK(body["error"]["message"] == "Rate limit reached");
  CHECK(body["error"]["code"] == "rate_limit_exceeded");
  CHECK(body["error"]["type"].is_string());

  Json without_code = Json::parse(chat::error(500, "boom").body);
  CHECK(without_code["error"]["code"].is_null());
}

TEST_CASE("an SSE fixture is served one event per chunk with its bytes unchanged") {
  MockResponse response = hermes::testing::sse_fixture(kResponseFixtures + "chat_text_stream.sse");
  CHECK(header_of(response, "Content-Type") == "text/event-stream");
  REQUIRE(response.chunks.size() == 7);
  CHECK(response.chunks[0].rfind("data: {\"id\":\"chatcmpl-TESTA1\"", 0) == 0);
  CHECK(response.chunks[6] == "data: [DONE]\n\n");
  std::string joined;
  for (const std::string& chunk : response.chunks) {
    CHECK(chunk.substr(chunk.size() - 2) == "\n\n");
    joined += chunk;
  }
  std::ifstream file(kResponseFixtures + "chat_text_stream.sse", std::ios::binary);
  std::string original((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CHECK(joined == original);
}

TEST_CASE("an SSE fixture keeps CRLF line endings and a last event without a blank line") {
  MockResponse response = hermes::testing::sse_fixture(kResponseFixtures + "crlf_unterminated.sse");
  CHECK(response.chunks == std::vector<std::string>{"data: {\"a\":1}\r\n\r\n",
                                                    ": keep-alive\r\n\r\n", "data: [DONE]"});
}

TEST_CASE("a missing SSE fixture is an error, not an empty stream") {
  CHECK_THROWS_AS(hermes::testing::sse_fixture(kResponseFixtures + "no-such-file.sse"),
                  std::runtime_error);
}
