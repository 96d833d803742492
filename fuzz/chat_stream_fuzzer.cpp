// A Chat Completions stream: arbitrary body bytes through the SSE parser and the
// ChatStreamAssembler, as the provider reads them (invariants: fuzz/stream_replay.hpp).
#include "fuzz/stream_replay.hpp"
#include "providers/chat_stream_assembler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hermes::fuzz::check_stream(hermes::fuzz::as_text(data, size), [](const hermes::StreamCallback* on_event) {
    return std::make_unique<hermes::internal::ChatStreamAssembler>(on_event);
  });
  return 0;
}
