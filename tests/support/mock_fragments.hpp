// Pieces every scripted wire format is built from: JSON in the key order real servers
// use, generated ids, and text cut the way servers stream it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing {

// Built in the key order real servers use: a client whose parser depends on key order
// (simdjson On-Demand's find_field does) must meet that order here, not a sorted one.
using OrderedJson = nlohmann::ordered_json;

inline constexpr std::int64_t kMockCreated = 1767225600;
inline constexpr const char* kMockModel = "mock-model";

std::string dump(const OrderedJson& value);

// "<prefix><n>", n counting up across the process.
std::string next_mock_id(std::string_view prefix);

// The calls with empty ids replaced by "<prefix><n>".
std::vector<MockToolCall> with_ids(std::vector<MockToolCall> calls,
                                   std::string_view prefix = "call_");

// "Hello big world" -> "Hello", " big", " world": each word with the whitespace before it.
std::vector<std::string> split_words(const std::string& text);

// Token-sized pieces cut at byte positions (never inside a UTF-8 sequence, which would
// make the event invalid JSON), at most 64 of them.
std::vector<std::string> split_fragments(const std::string& text);

// A JSON body with Content-Type application/json.
MockResponse json_response(const OrderedJson& body, int status = 200);

// One SSE event: "event: <name>\ndata: <json>\n\n".
std::string sse_event(std::string_view name, const OrderedJson& data);

// A streamed response of `events`, with Content-Type text/event-stream.
MockResponse sse_response(std::vector<std::string> events);

}  // namespace hermes::testing
