// Replaying recorded SSE transcripts through a wire format's assembler, and checking the
// answer (or the failure) against the expectations of a fixture case file.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "providers/model_exchange.hpp"
#include "providers/sse_parser.hpp"

namespace hermes::testing {

using AssemblerMaker =
    std::function<std::unique_ptr<internal::AnswerAssembler>(const StreamCallback*)>;

// Stream events in the compact text form the fixtures use.
inline std::string describe(const StreamEvent& e) {
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
  Result<ProviderResponse> result = Status::internal("not run");
  std::vector<std::string> events;
};

// Replays a transcript through the SSE parser and an assembler, `slice` bytes at a time.
inline Replay replay(const std::string& transcript, std::size_t slice,
                     const AssemblerMaker& make_assembler) {
  Replay out;
  StreamCallback callback = [&out](const StreamEvent& e) { out.events.push_back(describe(e)); };
  std::unique_ptr<internal::AnswerAssembler> assembler = make_assembler(&callback);
  internal::SseParser parser([&](const internal::SseEvent& e) { assembler->add_event(e); });
  for (std::size_t i = 0; i < transcript.size(); i += slice) {
    parser.feed(std::string_view(transcript).substr(i, slice));
  }
  parser.finish();
  out.result = assembler->finish();
  return out;
}

// The transcript with every line ending a CRLF.
inline std::string with_crlf(const std::string& transcript) {
  std::string out;
  out.reserve(transcript.size() + transcript.size() / 16);
  for (char c : transcript) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

inline Json usage_json(const Usage& u) {
  if (!u.reported) return nullptr;
  return Json{{"input_tokens", u.input_tokens},
              {"output_tokens", u.output_tokens},
              {"cache_read_tokens", u.cache_read_tokens},
              {"cache_write_tokens", u.cache_write_tokens},
              {"reasoning_tokens", u.reasoning_tokens}};
}

// Checks the fields `expect` names; a replay field named with null must be null.
inline void check_answer(const ProviderResponse& response, const Json& expect) {
  const Message& m = response.message;
  CHECK(m.role == Role::kAssistant);
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
  const std::pair<const char*, const Json*> replay_fields[] = {
      {"reasoning_details", &m.reasoning_details},
      {"anthropic_content_blocks", &m.anthropic_content_blocks},
      {"codex_reasoning_items", &m.codex_reasoning_items},
      {"codex_message_items", &m.codex_message_items}};
  // Not a structured binding: CAPTURE's lambda cannot capture one before clang 16.
  for (const auto& replay_field : replay_fields) {
    const char* key = replay_field.first;
    const Json* field = replay_field.second;
    CAPTURE(key);
    if (expect.contains(key)) CHECK(*field == expect[key]);
  }
  if (expect.contains("served_model")) CHECK(response.served_model == expect["served_model"]);
  if (expect.contains("response_id")) CHECK(response.response_id == expect["response_id"]);
}

inline void check_failure(const Result<ProviderResponse>& result, const Json& expect) {
  REQUIRE_FALSE(result.ok());
  REQUIRE(result.status().code() == StatusCode::kApiError);
  ApiError error = *result.status().api_error();
  CHECK(error.http_status == expect.at("http_status").get<int>());
  CHECK(transport_failure_name(error.transport) == expect.at("transport").get<std::string>());
  if (expect.contains("message")) CHECK(error.message == expect["message"].get<std::string>());
  if (expect.contains("message_contains")) {
    CHECK(error.message.find(expect["message_contains"].get<std::string>()) != std::string::npos);
  }
  if (expect.contains("error_code"))
    CHECK(error.error_code == expect["error_code"].get<std::string>());
  classify_in_place(error, 1000, 200000, 4);
  CHECK(failover_reason_name(error.reason) == expect.at("reason").get<std::string>());
}

// Replays every case of a case file whole, byte by byte and with CRLF line ends; slicing
// and line ends never change the answer or the events.
inline void replay_cases(const Json& cases, const std::function<std::string(const Json&)>& read,
                         const std::function<AssemblerMaker(const Json&)>& maker_for) {
  for (const Json& c : cases) {
    const std::string name = c.at("name").get<std::string>();
    CAPTURE(name);
    const std::string transcript = read(c);
    const AssemblerMaker make = maker_for(c);
    const Replay whole = replay(transcript, transcript.size(), make);
    if (c.contains("expect")) {
      REQUIRE_MESSAGE(whole.result.ok(), whole.result.status().to_string());
      check_answer(*whole.result, c["expect"]);
    } else {
      check_failure(whole.result, c.at("error"));
    }
    if (c.contains("events")) CHECK(whole.events == c["events"].get<std::vector<std::string>>());
    for (const Replay& variant :
         {replay(transcript, 1, make), replay(with_crlf(transcript), 7, make)}) {
      CHECK(variant.events == whole.events);
      CHECK(variant.result.ok() == whole.result.ok());
      if (whole.result.ok() && variant.result.ok()) {
        CHECK(variant.result->message == whole.result->message);
        CHECK(variant.result->usage == whole.result->usage);
      }
    }
  }
}

}  // namespace hermes::testing
