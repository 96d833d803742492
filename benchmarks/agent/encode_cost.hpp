// CPU per model call of writing the request body, in-process: the Anthropic Messages
// encoder from scratch, at a turn's first call (every message converted and kept) and at
// its later calls (one step new, the rest from the encoding cache), beside the Chat
// Completions encoder's later calls.
#pragma once

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::bench {

// On make_history(`history_size`), each figure measured for about `seconds`, in µs per
// call: {"history", "anthropic_from_scratch_us", "anthropic_first_call_us",
// "anthropic_later_call_us", "chat_later_call_us"}.
Result<Json> measure_encode_cost(int history_size, double seconds);

}  // namespace hermes::bench
