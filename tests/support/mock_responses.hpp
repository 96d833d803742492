// Builders of scripted responses in the wire formats of real model services.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

// Reasoning a scripted Responses model returns with its answer.
struct MockReasoning {
  std::string summary;
  std::string encrypted_content;  // Generated ("gAAAA-mock-<n>") when empty.
};

// OpenAI Responses API.
namespace responses {

// A message item with `content` (and a reasoning item before it, if given). Streamed:
// response.created, then per item output_item.added, its deltas (summary text and
// output text per word, as output_text.delta / reasoning_summary_text.delta),
// output_item.done carrying the complete item (and the encrypted content), and finally
// response.completed with the whole output and the usage. There is no [DONE].
MockResponse text(const std::string& content, bool stream, const MockUsage& usage = {},
                  const std::optional<MockReasoning>& reasoning = std::nullopt);

// function_call items (after an optional reasoning item and message). Streamed: per call
// output_item.added with empty arguments, the arguments in fragments
// (function_call_arguments.delta), function_call_arguments.done, output_item.done.
MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content = "", const MockUsage& usage = {},
                        const std::optional<MockReasoning>& reasoning = std::nullopt);

// An HTTP error with an OpenAI-shaped body (the Responses API uses the same shape).
MockResponse error(int status, const std::string& message, const std::string& code = "",
                   const std::vector<std::pair<std::string, std::string>>& headers = {});

}  // namespace responses

// Thinking a scripted Anthropic model does before it answers.
struct MockThinking {
  std::string thinking;
  std::string signature;  // Generated when empty.
};

// Anthropic Messages.
namespace anthropic {

// A text answer (after a thinking block, if given). Streamed: message_start with the
// input usage, per block content_block_start / deltas (thinking_delta and a
// signature_delta, text_delta per word) / content_block_stop, a ping, message_delta with
// the stop reason and cumulative output tokens, message_stop.
MockResponse text(const std::string& content, bool stream, const MockUsage& usage = {},
                  const std::optional<MockThinking>& thinking = std::nullopt,
                  const std::string& stop_reason = "end_turn");

// tool_use blocks (after optional thinking and text). Streamed input arrives as
// input_json_delta fragments, the first one empty, as Anthropic sends it.
MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content = "", const MockUsage& usage = {},
                        const std::optional<MockThinking>& thinking = std::nullopt);

// An HTTP error with Anthropic's body: {"type":"error","error":{"type","message"},
// "request_id"}.
MockResponse error(int status, const std::string& type, const std::string& message,
                   const std::vector<std::pair<std::string, std::string>>& headers = {});

}  // namespace anthropic

// What model servers say about their models (context-length discovery).
namespace metadata {

// GET /v1/models: {"object":"list","data": entries}.
MockResponse models(const Json& entries);

// llama.cpp's GET /props, reporting the per-slot window `n_ctx`.
MockResponse llamacpp_props(int64_t n_ctx);

// Ollama's POST /api/show: model_info with "<architecture>.context_length" and, when
// given, a num_ctx line in the parameters text.
MockResponse ollama_show(const std::string& architecture, int64_t context_length,
                         std::optional<int64_t> num_ctx = std::nullopt);

}  // namespace metadata

// A recorded SSE transcript (a file of events separated by blank lines, e.g. from
// tests/fixtures), served as one chunk per event with its bytes unchanged. Throws
// std::runtime_error when the file cannot be read (tests only).
MockResponse sse_fixture(const std::string& path);

}  // namespace hermes::testing
