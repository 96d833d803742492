// Throughput of the hot-path parsers, in-process: SSE splitting and Chat Completions
// stream assembly over the recorded streams, and the rough token estimate.
#pragma once

#include <string>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::bench {

// Runs for about `seconds` each and returns MB/s figures as JSON:
// {"sse_mb_s", "chat_stream_mb_s", "token_estimate_mb_s", "token_estimate_messages_mb_s"}.
Result<Json> measure_parse_throughput(const std::string& streams_dir, double seconds);

}  // namespace hermes::bench
