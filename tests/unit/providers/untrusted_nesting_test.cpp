// JSON nested a hundred thousand levels deep, from a provider, through every place a wire
// format reads it: stream chunks and events, whole bodies, and the tool arguments and
// replay blocks an answer carries on to the next request. None may recurse per level
// (which would overflow the stack); the answer either fails with an error naming the
// problem or leaves the deep value out.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "common/json_text.hpp"
#include "providers/anthropic_stream_assembler.hpp"
#include "providers/chat_stream_assembler.hpp"
#include "providers/responses_stream_assembler.hpp"
#include "unit/providers/stream_replay.hpp"

using hermes::Json;
using hermes::StatusCode;
using hermes::internal::AnthropicStreamAssembler;
using hermes::internal::ChatStreamAssembler;
using hermes::internal::ResponsesStreamAssembler;

namespace {

constexpr std::size_t kLevels = 100000;

std::string deep_array() {
  return std::string(kLevels, '[') + std::string(kLevels, ']');
}

hermes::testing::Replay replay_chat(const std::string& transcript) {
  return hermes::testing::replay(
      transcript, transcript.size(),
      [](const hermes::StreamCallback* e) { return std::make_unique<ChatStreamAssembler>(e); });
}

hermes::testing::Replay replay_responses(const std::string& transcript) {
  return hermes::testing::replay(transcript, transcript.size(),
                                 [](const hermes::StreamCallback* e) {
                                   return std::make_unique<ResponsesStreamAssembler>("openai", e);
                                 });
}

hermes::testing::Replay replay_anthropic(const std::string& transcript) {
  return hermes::testing::replay(transcript, transcript.size(),
                                 [](const hermes::StreamCallback* e) {
                                   return std::make_unique<AnthropicStreamAssembler>(e);
                                 });
}

std::string sse(const std::string& data, const std::string& event = "") {
  return (event.empty() ? "" : "event: " + event + "\n") + "data: " + data + "\n\n";
}

// The error of a failed answer, for messages.
std::string error_message(const hermes::Result<hermes::ProviderResponse>& result) {
  REQUIRE_FALSE(result.ok());
  REQUIRE(result.status().code() == StatusCode::kApiError);
  return result.status().api_error()->message;
}

// Arguments the loop will be given: deep ones must not parse into a tree.
void check_arguments_refused(const std::string& arguments) {
  const hermes::Result<Json> parsed = hermes::internal::parse_json_checked(arguments);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == StatusCode::kResourceExhausted);
}

}  // namespace

TEST_CASE("a Chat Completions chunk that is itself deeply nested fails the answer") {
  const auto replay = replay_chat(sse(deep_array()) + "data: [DONE]\n\n");
  CHECK_FALSE(error_message(replay.result).empty());
}

TEST_CASE("deeply nested tool arguments in a chat stream reach the loop as text it refuses") {
  const std::string transcript =
      sse(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":)" +
          deep_array() + "}}]}}]}") +
      sse(R"({"choices":[{"index":0,"delta":{"reasoning_details":)" + deep_array() +
          R"(},"finish_reason":"tool_calls"}]})") +
      "data: [DONE]\n\n";
  const auto replay = replay_chat(transcript);
  if (replay.result.ok()) {
    REQUIRE(replay.result->message.tool_calls.size() == 1);
    check_arguments_refused(replay.result->message.tool_calls[0].arguments);
    CHECK(replay.result->message.reasoning_details.is_null());
  } else {
    CHECK_FALSE(error_message(replay.result).empty());
  }
}

TEST_CASE("a deeply nested Chat Completions body fails the answer") {
  ChatStreamAssembler assembler;
  assembler.add_body(deep_array());
  CHECK_FALSE(error_message(assembler.finish()).empty());
}

TEST_CASE("a deeply nested Responses item or terminal response is refused") {
  const std::string item =
      sse(R"({"type":"response.output_item.done","output_index":0,"item":)" + deep_array() + "}",
          "response.output_item.done");
  const std::string completed =
      sse(R"({"type":"response.completed","response":)" + deep_array() + "}", "response.completed");
  const auto replay = replay_responses(item + completed);
  CHECK(error_message(replay.result)
            .rfind("a terminal event whose response is JSON nested deeper than 256 levels: [[[",
                   0) == 0);
}

TEST_CASE("a deeply nested Responses or Anthropic body names the nesting") {
  ResponsesStreamAssembler responses("openai");
  responses.add_body(deep_array());
  CHECK(error_message(responses.finish())
            .rfind("the response body is JSON nested deeper than 256 levels", 0) == 0);
  AnthropicStreamAssembler anthropic;
  anthropic.add_body(deep_array());
  CHECK(error_message(anthropic.finish())
            .rfind("the response body is JSON nested deeper than 256 levels", 0) == 0);
}

TEST_CASE("a deeply nested Anthropic block is left out of the replayed content") {
  const std::string transcript =
      sse(R"({"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"usage":{"input_tokens":1,"output_tokens":1}}})",
          "message_start") +
      sse(R"({"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":)" +
              deep_array() + "}}",
          "content_block_start") +
      sse(R"({"type":"content_block_stop","index":0})", "content_block_stop") +
      sse(R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}})",
          "content_block_start") +
      sse(R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":)" +
              hermes::internal::dump_json(Json("{\"a\":" + deep_array() + "}")) + "}}",
          "content_block_delta") +
      sse(R"({"type":"content_block_stop","index":1})", "content_block_stop") +
      sse(R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}})",
          "message_delta") +
      sse(R"({"type":"message_stop"})", "message_stop");
  const auto replay = replay_anthropic(transcript);
  REQUIRE_MESSAGE(replay.result.ok(), replay.result.status().to_string());
  const hermes::Message& m = replay.result->message;
  REQUIRE(m.tool_calls.size() == 1);
  check_arguments_refused(m.tool_calls[0].arguments);
  // The replay blocks the next request sends back hold no deep value.
  CHECK_FALSE(hermes::internal::json_nesting_exceeds(
      hermes::internal::dump_json(m.anthropic_content_blocks)));
}

TEST_CASE("an answer that opens thousands of tool calls or items fails instead of growing") {
  std::string chat;
  for (int i = 0; i < 5000; ++i) {
    chat += sse(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":)" + std::to_string(i) +
                R"(,"id":"c)" + std::to_string(i) +
                R"(","function":{"name":"f","arguments":"{}"}}]}}]})");
  }
  CHECK(error_message(replay_chat(chat + "data: [DONE]\n\n").result) ==
        "the answer opened more than 4096 tool calls");
  std::string responses;
  for (int i = 0; i < 5000; ++i) {
    responses += sse(R"({"type":"response.output_text.delta","output_index":)" + std::to_string(i) +
                         R"(,"item_id":"i)" + std::to_string(i) + R"(","delta":"x"})",
                     "response.output_text.delta");
  }
  CHECK(error_message(replay_responses(responses).result) ==
        "the answer opened more than 4096 output items");
}
