// The JSON spec format is how scripts and tests in other languages describe responses;
// a typo in a spec must fail loudly, naming the key, instead of serving something else.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"

using hermes::Json;
using hermes::StatusCode;
using hermes::testing::mock_response_from_json;
using hermes::testing::MockResponse;
namespace chat = hermes::testing::chat;

namespace {

const std::string kJsonFixtures = HERMES_FIXTURES_DIR "/mock_server/";

MockResponse parse(const Json& spec) {
  auto response = mock_response_from_json(spec);
  REQUIRE_MESSAGE(response.ok(), response.status().to_string());
  return std::move(response).value();
}

std::string header(const MockResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

// Builders number their ids; compare responses with the ids taken out.
Json without_ids(const std::string& text) {
  Json body = Json::parse(text);
  body.erase("id");
  return body;
}

}  // namespace

TEST_CASE("a raw spec sets every field of the response") {
  MockResponse response = parse(Json::parse(R"({
      "status": 503, "headers": {"Retry-After": 2, "X-Test": "yes"},
      "chunks": ["data: a\n\n", "data: b\n\n"], "first_byte_delay_ms": 15,
      "chunk_delay_ms": 5, "drop_after_chunks": 1, "close_before_headers": true,
      "path_prefix": "/v1/models"})"));
  CHECK(response.status == 503);
  CHECK(header(response, "Retry-After") == "2");
  CHECK(header(response, "X-Test") == "yes");
  CHECK(response.chunks == std::vector<std::string>{"data: a\n\n", "data: b\n\n"});
  CHECK(response.first_byte_delay == std::chrono::milliseconds(15));
  CHECK(response.chunk_delay == std::chrono::milliseconds(5));
  CHECK(response.drop_after_chunks == std::size_t{1});
  CHECK(response.close_before_headers);
  CHECK(response.path_prefix == "/v1/models");
}

TEST_CASE("a spec can script a stall after N chunks and a reset instead of a close") {
  MockResponse response = parse(Json::parse(R"({"chunks": ["data: a\n\n", "data: b\n\n"],
      "stall_after_chunks": 1, "stall_ms": 250, "close_before_headers": true,
      "reset_connection": true})"));
  CHECK(response.stall_after_chunks == std::size_t{1});
  CHECK(response.stall == std::chrono::milliseconds(250));
  CHECK(response.reset_connection);
}

TEST_CASE("an empty spec is a plain 200 with nothing scripted") {
  MockResponse response = parse(Json::object());
  CHECK(response.status == 200);
  CHECK(response.body.empty());
  CHECK_FALSE(response.drop_after_chunks.has_value());
}

TEST_CASE("a body that is not a string is sent as its JSON text") {
  CHECK(parse(Json::parse(R"({"body": "raw text"})")).body == "raw text");
  MockResponse response = parse(Json::parse(R"({"body": {"error": {"message": "m"}}})"));
  CHECK(Json::parse(response.body) == Json::parse(R"({"error": {"message": "m"}})"));
}

TEST_CASE("the chat_text shorthand builds the text answer") {
  MockResponse plain = parse(Json::parse(R"({"chat_text": "Hi there"})"));
  CHECK(without_ids(plain.body) == without_ids(chat::text("Hi there", false).body));

  MockResponse streamed = parse(Json::parse(R"({"chat_text": "Hi there", "stream": true,
      "usage": {"prompt_tokens": 7, "completion_tokens": 2, "cached_tokens": 3,
                "reasoning_tokens": 1}, "finish_reason": "length"})"));
  MockResponse expected = chat::text("Hi there", true, {7, 2, 3, 1}, "length");
  REQUIRE(streamed.chunks.size() == expected.chunks.size());
  const std::string& usage_chunk = streamed.chunks[streamed.chunks.size() - 2];
  CHECK(usage_chunk.find(R"("prompt_tokens":7)") != std::string::npos);
  CHECK(usage_chunk.find(R"("cached_tokens":3)") != std::string::npos);
  CHECK(streamed.chunks[streamed.chunks.size() - 3].find(R"("finish_reason":"length")") !=
        std::string::npos);
}

TEST_CASE("the chat_tool_calls shorthand takes arguments as an object or as text") {
  MockResponse response = parse(Json::parse(R"({"chat_tool_calls": [
      {"id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}},
      {"id": "c2", "name": "broken", "arguments": "{\"a\": "},
      {"id": "c3", "name": "no_arguments"}],
      "content": "Let me look."})"));
  Json message = Json::parse(response.body)["choices"][0]["message"];
  CHECK(message["content"] == "Let me look.");
  const Json& calls = message["tool_calls"];
  REQUIRE(calls.size() == 3);
  CHECK(Json::parse(calls[0]["function"]["arguments"].get<std::string>()) ==
        Json{{"city", "Paris"}});
  CHECK(calls[1]["function"]["arguments"] == "{\"a\": ");
  CHECK(calls[2]["function"]["arguments"] == "{}");
  CHECK(Json::parse(response.body)["choices"][0]["finish_reason"] == "tool_calls");

  MockResponse streamed = parse(
      Json::parse(R"({"chat_tool_calls": [{"name": "f", "arguments": {}}], "stream": true})"));
  CHECK(streamed.chunks.back() == "data: [DONE]\n\n");
}

TEST_CASE("the chat_error shorthand builds an OpenAI error with its headers") {
  MockResponse response = parse(Json::parse(R"({"chat_error": {"status": 429,
      "message": "Slow down", "code": "rate_limit_exceeded", "headers": {"Retry-After": "3"}}})"));
  CHECK(response.status == 429);
  CHECK(header(response, "Retry-After") == "3");
  Json error = Json::parse(response.body)["error"];
  CHECK(error["message"] == "Slow down");
  CHECK(error["code"] == "rate_limit_exceeded");

  CHECK(parse(Json::parse(R"({"chat_error": {}})")).status == 500);
}

TEST_CASE("the sse_file shorthand serves the transcript one event per chunk") {
  MockResponse response = parse(Json{{"sse_file", kJsonFixtures + "chat_text_stream.sse"}});
  CHECK(response.chunks ==
        hermes::testing::sse_fixture(kJsonFixtures + "chat_text_stream.sse").chunks);
}

TEST_CASE("faults, routing, status and headers apply to a shorthand too") {
  MockResponse response = parse(Json::parse(R"({"chat_text": "late", "stream": true,
      "first_byte_delay_ms": 20, "drop_after_chunks": 2, "path_prefix": "/v1/chat",
      "status": 201, "headers": {"content-type": "text/plain", "X-Extra": "1"}})"));
  CHECK(response.status == 201);
  CHECK(response.first_byte_delay == std::chrono::milliseconds(20));
  CHECK(response.drop_after_chunks == std::size_t{2});
  CHECK(response.path_prefix == "/v1/chat");
  // A header of the spec replaces the builder's header of the same name.
  CHECK(header(response, "Content-Type").empty());
  CHECK(header(response, "content-type") == "text/plain");
  CHECK(header(response, "X-Extra") == "1");
}

TEST_CASE("an invalid spec is rejected with a message naming the problem") {
  std::ifstream file(kJsonFixtures + "invalid_specs.json");
  Json cases = Json::parse(file);
  REQUIRE(cases.size() > 20);
  for (const Json& item : cases) {
    CAPTURE(item.dump());
    auto response = mock_response_from_json(item["spec"]);
    REQUIRE_FALSE(response.ok());
    CHECK(response.status().code() == StatusCode::kInvalidArgument);
    CHECK(response.status().message().find(item["message"].get<std::string>()) !=
          std::string::npos);
  }
}
