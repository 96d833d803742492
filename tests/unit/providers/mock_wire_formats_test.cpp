// The mock server's Responses and Anthropic answers, built from the JSON spec shorthands,
// read back by the real assemblers: what the builders script is what a client sees.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "providers/anthropic_stream_assembler.hpp"
#include "providers/responses_stream_assembler.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "unit/providers/stream_replay.hpp"

using hermes::Json;
using hermes::ProviderResponse;
using hermes::Result;
using hermes::StreamCallback;
using hermes::testing::mock_response_from_json;
using hermes::testing::MockResponse;

namespace {

MockResponse built(const char* spec) {
  auto response = mock_response_from_json(Json::parse(spec));
  REQUIRE_MESSAGE(response.ok(), response.status().to_string());
  return *response;
}

std::string joined_chunks(const MockResponse& response) {
  std::string text;
  for (const std::string& chunk : response.chunks) text += chunk;
  return text;
}

// Reads a scripted answer through `make`: as a stream when it has chunks, else as a body.
Result<ProviderResponse> read(const MockResponse& response,
                              const hermes::testing::AssemblerMaker& make) {
  if (!response.chunks.empty()) {
    return hermes::testing::replay(joined_chunks(response), 5, make).result;
  }
  auto assembler = make(nullptr);
  assembler->add_body(response.body);
  return assembler->finish();
}

hermes::testing::AssemblerMaker responses_reader() {
  return [](const StreamCallback* on_event) {
    return std::make_unique<hermes::internal::ResponsesStreamAssembler>("other:mock", on_event);
  };
}

hermes::testing::AssemblerMaker anthropic_reader() {
  return [](const StreamCallback* on_event) {
    return std::make_unique<hermes::internal::AnthropicStreamAssembler>(on_event);
  };
}

}  // namespace

TEST_CASE("responses shorthands script answers the Responses assembler reads back") {
  for (bool stream : {true, false}) {
    CAPTURE(stream);
    const std::string flag = stream ? "true" : "false";
    const MockResponse text = built((R"({"responses_text": "Hello there", "stream": )" + flag +
                                     R"(, "usage": {"prompt_tokens": 12, "cached_tokens": 4},
        "reasoning": {"summary": "Greet.", "encrypted_content": "gAAAA-x"}})")
                                        .c_str());
    CHECK(text.headers.front().second == (stream ? "text/event-stream" : "application/json"));
    auto answer = read(text, responses_reader());
    REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
    CHECK(answer->message.content == "Hello there");
    CHECK(answer->message.reasoning == "Greet.");
    CHECK(answer->message.codex_reasoning_items[0]["encrypted_content"] == "gAAAA-x");
    CHECK(answer->usage.input_tokens == 12);
    CHECK(answer->usage.cache_read_tokens == 4);

    const MockResponse calls = built((R"({"responses_tool_calls": [
        {"id": "call_1", "name": "f", "arguments": {"x": 1}},
        {"name": "g", "arguments": "{\"y\": \"two words\"}"}], "stream": )" +
                                      flag + "}")
                                         .c_str());
    auto called = read(calls, responses_reader());
    REQUIRE_MESSAGE(called.ok(), called.status().to_string());
    REQUIRE(called->message.tool_calls.size() == 2);
    CHECK(called->message.tool_calls[0].id == "call_1");
    CHECK(called->message.tool_calls[0].arguments == R"({"x":1})");
    CHECK(called->message.tool_calls[1].arguments == R"({"y": "two words"})");
    CHECK_FALSE(called->message.tool_calls[1].id.empty());
  }
}

TEST_CASE("anthropic shorthands script answers the Anthropic assembler reads back") {
  for (bool stream : {true, false}) {
    CAPTURE(stream);
    const std::string flag = stream ? "true" : "false";
    const MockResponse text =
        built((R"({"anthropic_text": "Hello there", "stream": )" + flag +
               R"(, "thinking": {"thinking": "Greet them.", "signature": "c2ln"},
        "stop_reason": "max_tokens", "usage": {"prompt_tokens": 30, "cached_tokens": 10,
        "completion_tokens": 9}})")
                  .c_str());
    auto answer = read(text, anthropic_reader());
    REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
    CHECK(answer->message.content == "Hello there");
    CHECK(answer->message.reasoning == "Greet them.");
    CHECK(answer->message.reasoning_details[0]["signature"] == "c2ln");
    CHECK(answer->message.finish_reason == "length");
    CHECK(answer->usage.input_tokens == 30);
    CHECK(answer->usage.cache_read_tokens == 10);
    CHECK(answer->usage.output_tokens == 9);

    const MockResponse calls = built((R"({"anthropic_tool_calls": [
        {"id": "toolu_1", "name": "f", "arguments": {"x": [1, 2]}}], "content": "Let me see.",
        "stream": )" + flag + "}")
                                         .c_str());
    auto called = read(calls, anthropic_reader());
    REQUIRE_MESSAGE(called.ok(), called.status().to_string());
    CHECK(called->message.content == "Let me see.");
    REQUIRE(called->message.tool_calls.size() == 1);
    CHECK(Json::parse(called->message.tool_calls[0].arguments) == Json{{"x", {1, 2}}});
  }
}

TEST_CASE("error shorthands build each format's error body") {
  const MockResponse anthropic = built(
      R"({"anthropic_error": {"status": 529, "type": "overloaded_error", "message": "Overloaded"},
          "headers": {"retry-after": 3}})");
  CHECK(anthropic.status == 529);
  const Json body = Json::parse(anthropic.body);
  CHECK(body.at("type") == "error");
  CHECK(body.at("error") == Json{{"type", "overloaded_error"}, {"message", "Overloaded"}});
  const MockResponse responses = built(
      R"({"responses_error": {"status": 400, "message": "Too long", "code": "context_length_exceeded"}})");
  CHECK(responses.status == 400);
  CHECK(Json::parse(responses.body).at("error").at("code") == "context_length_exceeded");
}

TEST_CASE("bad shorthand specs name the offending key") {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"responses_text": "x", "thinking": {}})", "\"thinking\""},
      {R"({"anthropic_text": "x", "reasoning": {}})", "\"reasoning\""},
      {R"({"anthropic_text": "x", "thinking": {"text": "t"}})", "\"text\""},
      {R"({"anthropic_error": {"code": "x"}})", "\"code\""},
      {R"({"responses_tool_calls": [{"arguments": "{}"}]})", "\"name\""},
      {R"({"anthropic_tool_calls": {}})", "\"anthropic_tool_calls\""},
      {R"({"responses_text": "x", "chat_text": "y"})", "exclude each other"},
  };
  // Not a structured binding: CAPTURE's lambda cannot capture one before clang 16.
  for (const auto& item : cases) {
    const char* spec = item.first;
    const char* expected = item.second;
    CAPTURE(spec);
    auto response = mock_response_from_json(Json::parse(spec));
    REQUIRE_FALSE(response.ok());
    CHECK(response.status().message().find(expected) != std::string::npos);
  }
}
