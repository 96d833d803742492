// Scripted answers and faults in each of the three wire formats, for the fault matrix.
//
// Every response built here closes its connection after it is served, so the HTTP
// client's pool keeps no socket from one matrix case to the next and a count of open
// file descriptors compares like with like.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing {

enum class Wire { kChatCompletions, kResponses, kAnthropicMessages };

inline constexpr Wire kAllWires[] = {Wire::kChatCompletions, Wire::kResponses,
                                     Wire::kAnthropicMessages};

// The AgentOptions::api_mode that selects `wire`.
std::string_view api_mode(Wire wire);
// A short name for messages: "chat", "responses", "anthropic".
std::string_view wire_name(Wire wire);

// The kinds of HTTP error a model service answers with.
enum class HttpFault {
  kRateLimit,    // 429
  kQuota,        // 429 insufficient_quota: a spent account (billing) unless it says when it resets
  kServerError,  // 500
  kBadGateway,   // 502
  kUnavailable,  // 503
  kOverloaded,   // 529
  kAuth,         // 401
  kContextOverflow,  // 400 with the service's context-length message
  kPayloadTooLarge,  // 413
};

// Builds the responses of one wire format, streamed or not.
class WireScript {
 public:
  WireScript(Wire wire, bool stream) : wire_(wire), stream_(stream) {}

  Wire wire() const { return wire_; }
  bool stream() const { return stream_; }

  MockResponse text(const std::string& content) const;
  MockResponse tool_call(const MockToolCall& call) const;
  // The context compressor's summary call, which never streams.
  MockResponse summary(const std::string& content) const;

  // An HTTP error with this service's body for `fault`; `headers` are added (Retry-After).
  MockResponse http_error(
      HttpFault fault, const std::vector<std::pair<std::string, std::string>>& headers = {}) const;

  // `content` answered, but the connection drops halfway through the answer (after some
  // text has been streamed, or halfway through a non-streamed JSON body).
  MockResponse cut_text(const std::string& content) const;
  // `call` made, but the connection drops before its arguments are complete.
  MockResponse cut_tool_call(const MockToolCall& call) const;
  // `call` made completely, but the connection drops before the stream's terminal
  // signal (the finish chunk, response.completed, message_delta), or before the last
  // byte of a non-streamed body: a dropped stream, not a completion.
  MockResponse unterminated_tool_call(const MockToolCall& call) const;
  // `content` answered, but the server goes silent halfway through for `stall`.
  MockResponse stalled_text(const std::string& content, std::chrono::milliseconds stall) const;
  // `content` answered, with one event (or the body) that is not valid JSON.
  MockResponse malformed_text(const std::string& content) const;
  // HTTP 200 that reports an error: the format's error event after some text when
  // streamed, an error body when not.
  MockResponse error_in_ok_response() const;

 private:
  Wire wire_;
  bool stream_;
};

// Accept the request, then reset the connection without answering.
MockResponse reset_before_headers();
// A text answer whose first byte is held back for `delay`.
MockResponse slow_first_byte(MockResponse response, std::chrono::milliseconds delay);

}  // namespace hermes::testing
