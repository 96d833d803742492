#include "providers/anthropic_stream_assembler.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "unit/providers/fixture_files.hpp"
#include "unit/providers/stream_replay.hpp"

using hermes::Json;
using hermes::StreamCallback;
using hermes::internal::AnthropicStreamAssembler;

TEST_CASE("recorded Anthropic streams assemble into the expected answers") {
  const Json cases = hermes::testing::read_json_fixture("streams/anthropic_stream_cases.json");
  REQUIRE(cases.size() >= 7);
  hermes::testing::replay_cases(
      cases,
      [](const Json& c) {
        return hermes::testing::read_fixture("streams/" + c.at("file").get<std::string>());
      },
      [](const Json&) {
        return [](const StreamCallback* on_event) {
          return std::make_unique<AnthropicStreamAssembler>(on_event);
        };
      });
}

TEST_CASE("a whole Anthropic message is read with its blocks in order") {
  AnthropicStreamAssembler assembler;
  assembler.add_body(R"({
    "id": "msg_0001", "type": "message", "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [
      {"type": "thinking", "thinking": "Call the tool.", "signature": "EqQBfake=="},
      {"type": "text", "text": "Checking the weather.", "citations": null},
      {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}}
    ],
    "stop_reason": "tool_use", "stop_sequence": null,
    "usage": {"input_tokens": 412, "cache_creation_input_tokens": 0,
              "cache_read_input_tokens": 2048, "output_tokens": 87}})");
  auto answer = assembler.finish();
  REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
  const hermes::Message& m = answer->message;
  CHECK(m.content == "Checking the weather.");
  CHECK(m.reasoning == "Call the tool.");
  CHECK(m.finish_reason == "tool_calls");
  REQUIRE(m.tool_calls.size() == 1);
  CHECK(Json::parse(m.tool_calls[0].arguments) == Json{{"city", "Paris"}});
  // Output-only fields (citations: null) are not kept for replay.
  CHECK(m.anthropic_content_blocks[1] == Json{{"type", "text"}, {"text", "Checking the weather."}});
  CHECK(answer->usage.input_tokens == 412 + 2048);
  CHECK(answer->usage.cache_read_tokens == 2048);
  CHECK(answer->response_id == "msg_0001");
}

TEST_CASE("stop reasons map to hermes finish reasons") {
  using hermes::internal::anthropic_finish_reason;
  CHECK(anthropic_finish_reason("end_turn", false) == "stop");
  CHECK(anthropic_finish_reason("stop_sequence", false) == "stop");
  CHECK(anthropic_finish_reason("tool_use", true) == "tool_calls");
  CHECK(anthropic_finish_reason("max_tokens", false) == "length");
  CHECK(anthropic_finish_reason("model_context_window_exceeded", false) == "length");
  CHECK(anthropic_finish_reason("refusal", false) == "content_filter");
  CHECK(anthropic_finish_reason("pause_turn", false) == "incomplete");
  CHECK(anthropic_finish_reason("", true) == "tool_calls");
}

TEST_CASE("an Anthropic error body with HTTP 200 is a failure with its status") {
  AnthropicStreamAssembler assembler;
  assembler.add_body(R"({"type":"error","error":{"type":"rate_limit_error",
      "message":"Number of request tokens has exceeded your per-minute rate limit"},
      "request_id":"req_011"})");
  auto result = assembler.finish();
  REQUIRE_FALSE(result.ok());
  const hermes::ApiError& error = *result.status().api_error();
  CHECK(error.http_status == 429);
  CHECK(error.error_code == "rate_limit_error");
}

TEST_CASE("a malformed event ends the stream as an invalid response") {
  AnthropicStreamAssembler assembler;
  hermes::internal::SseEvent event;
  event.has_data = true;
  event.event = "content_block_delta";
  event.data = R"({"type":"content_block_delta","index":0,"delta":)";
  CHECK_FALSE(assembler.add_event(event));
  auto result = assembler.finish();
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().api_error()->error_code == "invalid_response");
}
