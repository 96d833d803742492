#include "providers/chat_stream_assembler.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hermes/api_error.hpp"
#include "providers/sse_parser.hpp"
#include "unit/providers/fixture_files.hpp"

using hermes::ApiError;
using hermes::Json;
using hermes::ProviderResponse;
using hermes::Result;
using hermes::StreamEvent;
using hermes::internal::ChatStreamAssembler;
using hermes::internal::SseEvent;
using hermes::internal::SseParser;

namespace {

// Stream events in the compact text form the fixtures use.
std::string describe(const StreamEvent& e) {
  switch (e.kind) {
    case StreamEvent::Kind::kTextDelta:
      return "text:" + std::string(e.text);
    case StreamEvent::Kind::kReasoningDelta:
      return "reasoning:" + std::string(e.text);
    case StreamEvent::Kind::kToolCallStart:
      return "tool_start:" + std::to_string(e.index) + ":" + std::string(e.id) + ":" +
             std::string(e.name);
    case StreamEvent::Kind::kToolCallDelta:
      return "tool_args:" + std::to_string(e.index) + ":" + std::string(e.text);
    case StreamEvent::Kind::kUsage:
      return "usage:" + std::to_string(e.usage->input_tokens) + "/" +
             std::to_string(e.usage->output_tokens);
    case StreamEvent::Kind::kFinish:
      return "finish:" + std::string(e.finish_reason);
  }
  return "?";
}

struct Replay {
  Result<ProviderResponse> result = hermes::Status::internal("not run");
  std::vector<std::string> events;
};

// Replays a transcript through the SSE parser and the assembler, `slice` bytes at a time.
Replay replay(const std::string& transcript, std::size_t slice) {
  Replay out;
  hermes::StreamCallback callback = [&out](const StreamEvent& e) {
    out.events.push_back(describe(e));
  };
  ChatStreamAssembler assembler(&callback);
  SseParser parser([&assembler](const SseEvent& e) { assembler.add_event(e); });
  for (std::size_t i = 0; i < transcript.size(); i += slice) {
    parser.feed(std::string_view(transcript).substr(i, slice));
  }
  parser.finish();
  out.result = assembler.finish();
  return out;
}

Json usage_json(const hermes::Usage& u) {
  if (!u.reported) return nullptr;
  return Json{{"input_tokens", u.input_tokens},
              {"output_tokens", u.output_tokens},
              {"cache_read_tokens", u.cache_read_tokens},
              {"cache_write_tokens", u.cache_write_tokens},
              {"reasoning_tokens", u.reasoning_tokens}};
}

void check_answer(const ProviderResponse& response, const Json& expect) {
  const hermes::Message& m = response.message;
  CHECK(m.role == hermes::Role::kAssistant);
  CHECK(m.content == expect.value("content", ""));
  CHECK(m.reasoning == expect.value("reasoning", ""));
  CHECK(m.finish_reason == expect.at("finish_reason").get<std::string>());
  const Json& calls = expect.at("tool_calls");
  REQUIRE(m.tool_calls.size() == calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    CHECK(m.tool_calls[i].id == calls[i].at("id").get<std::string>());
    CHECK(m.tool_calls[i].name == calls[i].at("name").get<std::string>());
    CHECK(m.tool_calls[i].arguments == calls[i].at("arguments").get<std::string>());
  }
  CHECK(usage_json(response.usage) == expect.at("usage"));
  if (expect.contains("reasoning_details"))
    CHECK(m.reasoning_details == expect["reasoning_details"]);
  if (expect.contains("served_model")) CHECK(response.served_model == expect["served_model"]);
  if (expect.contains("response_id")) CHECK(response.response_id == expect["response_id"]);
}

void check_failure(const Result<ProviderResponse>& result, const Json& expect) {
  REQUIRE_FALSE(result.ok());
  REQUIRE(result.status().code() == hermes::StatusCode::kApiError);
  ApiError error = *result.status().api_error();
  CHECK(error.http_status == expect.at("http_status").get<int>());
  CHECK(hermes::transport_failure_name(error.transport) ==
        expect.at("transport").get<std::string>());
  if (expect.contains("message")) CHECK(error.message == expect["message"].get<std::string>());
  if (expect.contains("message_contains")) {
    CHECK(error.message.find(expect["message_contains"].get<std::string>()) != std::string::npos);
  }
  if (expect.contains("error_code"))
    CHECK(error.error_code == expect["error_code"].get<std::string>());
  hermes::classify_in_place(error, 1000, 200000, 4);
  CHECK(hermes::failover_reason_name(error.reason) == expect.at("reason").get<std::string>());
}

}  // namespace

TEST_CASE("recorded Chat Completions streams assemble into the expected answers") {
  const Json cases = hermes::testing::read_json_fixture("streams/chat_stream_cases.json");
  REQUIRE(cases.size() >= 15);
  for (const Json& c : cases) {
    const std::string name = c.at("name").get<std::string>();
    CAPTURE(name);
    const std::string transcript =
        hermes::testing::read_fixture("streams/" + c.at("file").get<std::string>());
    const Replay whole = replay(transcript, transcript.size());
    if (c.contains("expect")) {
      REQUIRE_MESSAGE(whole.result.ok(), whole.result.status().to_string());
      check_answer(*whole.result, c["expect"]);
    } else {
      check_failure(whole.result, c.at("error"));
    }
    if (c.contains("events")) CHECK(whole.events == c["events"].get<std::vector<std::string>>());

    // Slicing never changes the answer or the events.
    const Replay bytewise = replay(transcript, 1);
    CHECK(bytewise.events == whole.events);
    CHECK(bytewise.result.ok() == whole.result.ok());
    if (whole.result.ok() && bytewise.result.ok()) {
      CHECK(bytewise.result->message == whole.result->message);
    }
  }
}

TEST_CASE("a cut stream reports the text it streamed but returns no tool calls") {
  const Replay cut = replay(hermes::testing::read_fixture("streams/a2_cut_mid_arguments.sse"), 64);
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
