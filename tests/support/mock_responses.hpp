// Builders of scripted responses in the wire formats of real model services.
#pragma once

#include <string>
#include <vector>

#include "hermes/json.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing {

// A tool call the scripted model makes.
struct MockToolCall {
  std::string id;  // Generated ("call_<n>") when empty.
  std::string name;
  std::string arguments;  // JSON text, sent as is (may be broken on purpose).
};

// Token counts a scripted response reports.
struct MockUsage {
  int prompt_tokens = 10;
  int completion_tokens = 5;
  int cached_tokens = 0;
  int reasoning_tokens = 0;
};

// OpenAI Chat Completions.
namespace chat {

// An assistant text answer. Streamed: a role chunk, one content chunk per word (with the
// whitespace before it), a finish chunk, a usage chunk (`choices: []`) and [DONE].
MockResponse text(const std::string& content, bool stream, const MockUsage& usage = {},
                  const std::string& finish_reason = "stop");

// An assistant message with tool calls (and optional text before them). Streamed: per
// call, a first fragment with id, type, name and empty arguments, then the arguments
// split into several fragments (anywhere, as real servers do: mid-key, mid-escape).
MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content = "", const MockUsage& usage = {},
                        const std::string& finish_reason = "tool_calls");

// An HTTP error with an OpenAI-shaped body {"error":{"message","type","code"}}.
MockResponse error(int status, const std::string& message, const std::string& code = "",
                   const std::vector<std::pair<std::string, std::string>>& headers = {});

}  // namespace chat

// OpenAI Responses API builders belong in `namespace responses`, and Anthropic Messages
// builders in `namespace anthropic`, beside the providers that need them.

// A recorded SSE transcript (a file of events separated by blank lines, e.g. from
// tests/fixtures), served as one chunk per event with its bytes unchanged. Throws
// std::runtime_error when the file cannot be read (tests only).
MockResponse sse_fixture(const std::string& path);

}  // namespace hermes::testing
