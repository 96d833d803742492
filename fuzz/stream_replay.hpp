// The check the three stream-assembler targets share: a body replayed through the SSE
// parser and a wire format's assembler, as the provider reads it off the network.
//
// Invariants: the body's slicing never changes the stream events or the outcome; a
// failure is always kApiError (an answer or a classified API error, nothing else); an
// answer is an assistant message whose JSON form serialises to text that parses again.
// The same bytes handed over as a whole non-streamed body obey the same outcome rule.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/message.hpp"
#include "hermes/provider.hpp"
#include "providers/model_exchange.hpp"
#include "providers/sse_parser.hpp"

namespace hermes::fuzz {

struct Replay {
  Result<ProviderResponse> result = Status::internal("not run");
  std::vector<std::string> events;
};

inline std::string describe(const StreamEvent& e) {
  std::string out = std::to_string(static_cast<int>(e.kind)) + ":" + std::to_string(e.index);
  for (std::string_view part : {e.text, e.id, e.name, e.finish_reason}) {
    out += '|';
    out += part;
  }
  if (e.usage != nullptr) out += "|usage:" + std::to_string(e.usage->input_tokens) + "/" +
                                 std::to_string(e.usage->output_tokens);
  return out;
}

template <class MakeAssembler>
Replay replay(std::string_view body, const std::vector<std::size_t>& cuts,
              const MakeAssembler& make) {
  Replay out;
  StreamCallback on_event = [&out](const StreamEvent& e) { out.events.push_back(describe(e)); };
  std::unique_ptr<internal::AnswerAssembler> assembler = make(&on_event);
  internal::SseParser parser([&](const internal::SseEvent& e) { assembler->add_event(e); });
  // As run_model_exchange reads: every event of a slice is delivered, and reading stops
  // after the slice in which the stream failed.
  feed_in_slices(body, cuts, [&](std::string_view slice) {
    if (!assembler->failed()) parser.feed(slice);
  });
  parser.finish();
  out.result = assembler->finish();
  return out;
}

// Equal, except for the ids the assembler makes up for calls the server sent without
// one: those are unique per call by design ("call_" and 18 hex digits).
inline bool same_message(Message a, Message b) {
  auto generated = [](const std::string& id) { return id.size() == 23 && id.rfind("call_", 0) == 0; };
  if (a.tool_calls.size() == b.tool_calls.size()) {
    for (std::size_t i = 0; i < a.tool_calls.size(); ++i) {
      std::string& x = a.tool_calls[i].id;
      std::string& y = b.tool_calls[i].id;
      if (x != y && generated(x) && generated(y)) x = y;
    }
  }
  return a == b;
}

inline void check_outcome(const Result<ProviderResponse>& result, const char* path) {
  if (!result.ok()) {
    require(result.status().code() == StatusCode::kApiError, path,
            "a failure that is not kApiError: " + result.status().to_string());
    require(result.status().api_error() != nullptr, path, "kApiError without an ApiError");
    return;
  }
  const Message& m = result->message;
  require(m.role == Role::kAssistant, path, "the answer is not an assistant message");
  const std::string text = internal::dump_json(message_to_json(m));
  require(internal::parse_json(text).has_value(), path, "the answer's JSON does not parse");
}

template <class MakeAssembler>
void check_stream(std::string_view body, const MakeAssembler& make) {
  no_throw("stream assembler", [&] {
    const Replay whole = replay(body, {}, make);
    check_outcome(whole.result, "streamed answer");
    const Replay sliced = replay(body, slice_cuts(body), make);
    require(sliced.events == whole.events, "slicing changed the stream events");
    require(sliced.result.ok() == whole.result.ok(), "slicing changed the outcome");
    if (whole.result.ok()) {
      require(same_message(sliced.result->message, whole.result->message),
              "slicing changed the message",
              internal::dump_json(message_to_json(whole.result->message)) + "\nsliced: " +
                  internal::dump_json(message_to_json(sliced.result->message)));
      require(sliced.result->usage == whole.result->usage, "slicing changed the usage");
    } else {
      require(sliced.result.status().to_string() == whole.result.status().to_string(),
              "slicing changed the error", whole.result.status().to_string());
    }

    std::unique_ptr<internal::AnswerAssembler> buffered = make(nullptr);
    buffered->add_body(body);
    check_outcome(buffered->finish(), "buffered answer");
  });
}

}  // namespace hermes::fuzz
