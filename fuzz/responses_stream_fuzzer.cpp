// A Responses API stream: arbitrary body bytes through the SSE parser and the
// ResponsesStreamAssembler, as the provider reads them (invariants: fuzz/stream_replay.hpp).
#include "fuzz/stream_replay.hpp"
#include "providers/responses_stream_assembler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hermes::fuzz::check_stream(hermes::fuzz::as_text(data, size), [](const hermes::StreamCallback* on_event) {
    return std::make_unique<hermes::internal::ResponsesStreamAssembler>("other:https://api.example.com/v1", on_event);
  });
  return 0;
}
