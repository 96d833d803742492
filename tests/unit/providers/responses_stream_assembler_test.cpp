#include "providers/responses_stream_assembler.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "unit/providers/fixture_files.hpp"
#include "unit/providers/stream_replay.hpp"

using hermes::Json;
using hermes::StreamCallback;
using hermes::internal::ResponsesStreamAssembler;
using hermes::testing::AssemblerMaker;

namespace {

AssemblerMaker maker(std::string issuer) {
  return [issuer](const StreamCallback* on_event) {
    return std::make_unique<ResponsesStreamAssembler>(issuer, on_event);
  };
}

}  // namespace

TEST_CASE("recorded Responses streams assemble into the expected answers") {
  const Json cases = hermes::testing::read_json_fixture("streams/responses_stream_cases.json");
  REQUIRE(cases.size() >= 7);
  hermes::testing::replay_cases(
      cases,
      [](const Json& c) {
        return hermes::testing::read_fixture("streams/" + c.at("file").get<std::string>());
      },
      [](const Json& c) { return maker(c.at("issuer").get<std::string>()); });
}

TEST_CASE("a whole Responses body is read like the terminal event of a stream") {
  ResponsesStreamAssembler assembler("codex_backend");
  assembler.add_body(R"(
    {"id":"resp_W1","object":"response","status":"completed","model":"gpt-5",
     "output":[{"id":"rs_tmp_1","type":"reasoning","summary":[],"encrypted_content":"gAAA-transient"},
               {"id":"rs_2","type":"reasoning","summary":[{"type":"summary_text","text":"Plan."}],
                "encrypted_content":"gAAA-kept"},
               {"id":"msg_1","type":"message","role":"assistant","status":"completed",
                "content":[{"type":"output_text","text":"Done."},{"type":"refusal","refusal":"no"}]}],
     "usage":{"input_tokens":9,"output_tokens":4}})");
  auto answer = assembler.finish();
  REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
  CHECK(answer->message.content == "Done.");
  CHECK(answer->message.reasoning == "Plan.");
  CHECK(answer->message.finish_reason == "stop");
  // Transient items cannot be replayed and are not kept.
  REQUIRE(answer->message.codex_reasoning_items.size() == 1);
  CHECK(answer->message.codex_reasoning_items[0]["id"] == "rs_2");
  CHECK(answer->message.codex_reasoning_items[0]["_issuer_kind"] == "codex_backend");
  CHECK(answer->usage.input_tokens == 9);
}

TEST_CASE("reasoning alone is final only where the server's completed status is trusted") {
  const std::string body = R"({"id":"r","status":"completed","output":[
      {"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Hmm."}]}]})";
  ResponsesStreamAssembler codex("codex_backend");
  codex.add_body(body);
  CHECK(codex.finish()->message.finish_reason == "incomplete");
  ResponsesStreamAssembler other("other:http://127.0.0.1:8080/v1");
  other.add_body(body);
  CHECK(other.finish()->message.finish_reason == "stop");
}

TEST_CASE("a tool call leaked into the text makes the turn incomplete, not an answer") {
  ResponsesStreamAssembler assembler("codex_backend");
  assembler.add_body(R"({"id":"r","status":"completed","output":[{"type":"message",
      "role":"assistant","content":[{"type":"output_text",
      "text":"assistant to=functions.exec_command {\"cmd\":\"ls\"}"}]}]})");
  auto answer = assembler.finish();
  REQUIRE(answer.ok());
  CHECK(answer->message.content.empty());
  CHECK(answer->message.finish_reason == "incomplete");
}

TEST_CASE("an empty or content-filtered Responses body") {
  ResponsesStreamAssembler empty("x");
  empty.add_body(R"({"id":"r","status":"completed","output":[]})");
  auto failed = empty.finish();
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().api_error()->error_code == "invalid_response");

  ResponsesStreamAssembler filtered("x");
  filtered.add_body(R"({"id":"r","status":"incomplete",
      "incomplete_details":{"reason":"content_filter"},"output":[]})");
  auto answer = filtered.finish();
  REQUIRE(answer.ok());
  CHECK(answer->message.finish_reason == "content_filter");
}

TEST_CASE("function calls without a call_id get one that pairs across retries") {
  const std::string body = R"({"id":"r","status":"completed","output":[
      {"type":"function_call","id":"call_A|fc_A","name":"f","arguments":"{}"},
      {"type":"function_call","name":"g","arguments":{"x":1}},
      {"type":"function_call","status":"in_progress","call_id":"call_C","name":"h","arguments":"{"}]})";
  ResponsesStreamAssembler first("x");
  first.add_body(body);
  ResponsesStreamAssembler second("x");
  second.add_body(body);
  auto a = first.finish();
  auto b = second.finish();
  REQUIRE(a.ok());
  REQUIRE(a->message.tool_calls.size() == 2);  // The unfinished call is not an answer.
  CHECK(a->message.tool_calls[0].id == "call_A");
  CHECK(a->message.tool_calls[1].id.rfind("call_", 0) == 0);
  CHECK(a->message.tool_calls[1].arguments == R"({"x":1})");
  CHECK(a->message.tool_calls[1].id == b->message.tool_calls[1].id);
}

TEST_CASE("an error body with HTTP 200 is a failure") {
  ResponsesStreamAssembler assembler("x");
  assembler.add_body(R"({"error":{"code":"server_error","message":"Something broke"}})");
  auto result = assembler.finish();
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().api_error()->message == "Something broke");
  CHECK(result.status().api_error()->error_code == "server_error");
}
