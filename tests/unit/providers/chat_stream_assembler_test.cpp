#include "providers/chat_stream_assembler.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "hermes/api_error.hpp"
#include "providers/sse_parser.hpp"
#include "unit/providers/fixture_files.hpp"
#include "unit/providers/stream_replay.hpp"

using hermes::ApiError;
using hermes::Json;
using hermes::ProviderResponse;
using hermes::Result;
using hermes::StreamEvent;
using hermes::internal::ChatStreamAssembler;
using hermes::internal::SseEvent;
using hermes::internal::SseParser;

namespace {

hermes::testing::Replay replay(const std::string& transcript, std::size_t slice) {
  return hermes::testing::replay(transcript, slice, [](const hermes::StreamCallback* on_event) {
    return std::make_unique<ChatStreamAssembler>(on_event);
  });
}

}  // namespace

TEST_CASE("recorded Chat Completions streams assemble into the expected answers") {
  const Json cases = hermes::testing::read_json_fixture("streams/chat_stream_cases.json");
  REQUIRE(cases.size() >= 15);
  hermes::testing::replay_cases(
      cases,
      [](const Json& c) {
        return hermes::testing::read_fixture("streams/" + c.at("file").get<std::string>());
      },
      [](const Json&) {
        return [](const hermes::StreamCallback* on_event) {
          return std::make_unique<ChatStreamAssembler>(on_event);
        };
      });
}

TEST_CASE("a cut stream reports the text it streamed but returns no tool calls") {
  const hermes::testing::Replay cut =
      replay(hermes::testing::read_fixture("streams/a2_cut_mid_arguments.sse"), 64);
  REQUIRE_FALSE(cut.result.ok());
  CHECK(cut.result.status().api_error()->transport == hermes::TransportFailure::kDisconnect);
  // The callers saw the calls start, so they can name what was lost.
  CHECK(cut.events.front() == "tool_start:0:call_TESTparis0001:get_weather");
}

TEST_CASE("a stream with an error event stops asking for more input") {
  ChatStreamAssembler assembler;
  SseEvent ok_event;
  ok_event.has_data = true;
  ok_event.data = R"({"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]})";
  CHECK(assembler.add_event(ok_event));
  SseEvent error_event;
  error_event.has_data = true;
  error_event.data = R"({"error":{"message":"Upstream failed","code":502}})";
  CHECK_FALSE(assembler.add_event(error_event));
  CHECK(assembler.failed());
}

TEST_CASE("a whole response is read like a one-chunk stream") {
  ChatStreamAssembler assembler;
  // DeepSeek pads a queued non-streaming answer with blank lines.
  assembler.add_completion(R"(

  {"id":"chatcmpl-W1","object":"chat.completion","model":"deepseek-reasoner",
   "choices":[{"index":0,"message":{"role":"assistant","content":null,
     "reasoning_content":"Two calls are needed.",
     "tool_calls":[{"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
                   {"id":"call_B","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Tokyo\"}"},
                    "extra_content":{"google":{"thought_signature":"c2ln"}}}]},
     "finish_reason":"tool_calls"}],
   "usage":{"prompt_tokens":88,"completion_tokens":17,"total_tokens":105,
            "prompt_tokens_details":{"cached_tokens":8,"cache_write_tokens":3},
            "completion_tokens_details":{"reasoning_tokens":5}}})");
  auto result = assembler.finish();
  REQUIRE(result.ok());
  const hermes::Message& m = result->message;
  CHECK(m.content.empty());
  CHECK(m.reasoning == "Two calls are needed.");
  REQUIRE(m.tool_calls.size() == 2);
  CHECK(m.tool_calls[0].id == "call_A");
  CHECK(m.tool_calls[1].arguments == R"({"city":"Tokyo"})");
  CHECK(m.tool_calls[1].extra ==
        Json::parse(R"({"extra_content":{"google":{"thought_signature":"c2ln"}}})"));
  CHECK(m.finish_reason == "tool_calls");
  CHECK(result->usage.input_tokens == 88);
  CHECK(result->usage.cache_read_tokens == 8);
  CHECK(result->usage.cache_write_tokens == 3);
  CHECK(result->usage.reasoning_tokens == 5);
  CHECK(result->served_model == "deepseek-reasoner");
}

TEST_CASE("whole responses without tool-call ids or indexes keep their calls apart") {
  ChatStreamAssembler assembler;
  assembler.add_completion(R"({"choices":[{"message":{"content":"","tool_calls":[
      {"function":{"name":"a","arguments":{"x":1}}},{"function":{"name":"b","arguments":""}}]},
      "finish_reason":"tool_calls"}]})");
  auto result = assembler.finish();
  REQUIRE(result.ok());
  REQUIRE(result->message.tool_calls.size() == 2);
  CHECK(result->message.tool_calls[0].name == "a");
  CHECK(result->message.tool_calls[0].arguments == R"({"x":1})");
  CHECK(result->message.tool_calls[1].arguments == "{}");
  CHECK_FALSE(result->message.tool_calls[0].id.empty());
  CHECK(result->message.tool_calls[0].id != result->message.tool_calls[1].id);
  CHECK_FALSE(result->usage.reported);
}

TEST_CASE("content given as a list of parts is flattened") {
  ChatStreamAssembler assembler;
  assembler.add_completion(
      R"({"choices":[{"message":{"content":[{"type":"text","text":"Hello "},{"type":"text","text":"world"}]},"finish_reason":"stop"}]})");
  auto result = assembler.finish();
  REQUIRE(result.ok());
  CHECK(result->message.content == "Hello world");
}

TEST_CASE("think tags in content are left for the agent loop") {
  ChatStreamAssembler assembler;
  assembler.add_completion(
      R"({"choices":[{"message":{"content":"<think>hmm</think>Answer"},"finish_reason":"stop"}]})");
  auto result = assembler.finish();
  REQUIRE(result.ok());
  CHECK(result->message.content == "<think>hmm</think>Answer");
  CHECK(result->message.reasoning.empty());
}

TEST_CASE("whole responses of the wrong shape are invalid responses") {
  for (const char* body :
       {"", "  \n", "not json", R"({"object":"chat.completion","choices":[]})", R"([1,2,3])"}) {
    CAPTURE(body);
    ChatStreamAssembler assembler;
    assembler.add_completion(body);
    auto result = assembler.finish();
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().api_error()->error_code == "invalid_response");
  }
}

TEST_CASE("an error body with HTTP 200 is an API error carrying its status") {
  ChatStreamAssembler assembler;
  assembler.add_completion(
      R"({"error":{"message":"Rate limit exceeded: free-models-per-day","code":429,"metadata":{}}})");
  auto result = assembler.finish();
  REQUIRE_FALSE(result.ok());
  const ApiError& error = *result.status().api_error();
  CHECK(error.http_status == 429);
  CHECK(error.message == "Rate limit exceeded: free-models-per-day");
}
