#include "faults/wire_faults.hpp"

#include <stdexcept>

namespace hermes::testing {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

MockResponse closing(MockResponse response) {
  response.headers.emplace_back("Connection", "close");
  return response;
}

// The index of the first chunk containing `needle`; throws when none does, because a
// fault placed nowhere would make its case pass vacuously.
std::size_t chunk_with(const MockResponse& response, std::string_view needle) {
  for (std::size_t i = 0; i < response.chunks.size(); ++i) {
    if (response.chunks[i].find(needle) != std::string::npos) return i;
  }
  throw std::logic_error("no chunk contains " + std::string(needle));
}

std::size_t last_chunk_with(const MockResponse& response, std::string_view needle) {
  std::size_t found = chunk_with(response, needle);
  for (std::size_t i = found; i < response.chunks.size(); ++i) {
    if (response.chunks[i].find(needle) != std::string::npos) found = i;
  }
  return found;
}

// Sends a non-streamed JSON body as two chunks split at `at`, so that the connection can
// drop or stall between them. (In place: a by-value response moved into the call could be
// emptied before an argument computed from its body is evaluated.)
void split_body(MockResponse& response, std::size_t at) {
  if (at == 0 || at >= response.body.size()) throw std::logic_error("split outside the body");
  response.chunks = {response.body.substr(0, at), response.body.substr(at)};
  response.body.clear();
  response.headers.emplace_back("Content-Type", "application/json");
}

// The first text chunk of an answer starts with its first word; the second word marks
// the point where some text has certainly been streamed.
std::string second_word(const std::string& content) {
  const std::size_t start = content.find(' ');
  const std::size_t end = content.find(' ', start + 1);
  return content.substr(start, end - start);
}

// The marker of a chunk that carries a fragment of tool-call arguments.
std::string_view arguments_marker(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return R"("function":{"arguments":)";
    case Wire::kResponses:
      return "response.function_call_arguments.delta";
    case Wire::kAnthropicMessages:
      return "input_json_delta";
  }
  return "";
}

// The first chunk of what ends a tool-call stream.
std::string_view tool_call_end_marker(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return R"("finish_reason":"tool_calls")";
    case Wire::kResponses:
      return "response.completed";
    case Wire::kAnthropicMessages:
      return "message_delta";
  }
  return "";
}

std::string broken_event(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return "data: "
             "{\"id\":\"chatcmpl-broken\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
             "\"lost\"}\n\n";
    case Wire::kResponses:
      return "event: response.output_text.delta\n"
             "data: {\"type\":\"response.output_text.delta\",\"delta\":\"lost\n\n";
    case Wire::kAnthropicMessages:
      return "event: content_block_delta\n"
             "data: "
             "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
             "\n\n";
  }
  return "";
}

// Each format's own way of reporting a failure inside a 200 stream.
std::vector<std::string> error_events(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return {
          "data: {\"error\":{\"message\":\"Provider disconnected unexpectedly\",\"code\":502}}\n\n",
          "data: [DONE]\n\n"};
    case Wire::kResponses:
      return {
          "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"The "
          "server had an error while processing your request.\",\"param\":null}\n\n",
          "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"id\":"
          "\"resp_failed\",\"object\":\"response\",\"status\":\"failed\",\"error\":{\"code\":"
          "\"server_error\",\"message\":\"The server had an error while processing your "
          "request.\"},\"output\":[]}}\n\n"};
    case Wire::kAnthropicMessages:
      return {
          "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
          "\"message\":\"Overloaded\"}}\n\n"};
  }
  return {};
}

// An error body with HTTP 200.
std::string error_body(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return R"({"error":{"message":"Provider disconnected unexpectedly","code":502}})";
    case Wire::kResponses:
      return R"({"id":"resp_failed","object":"response","status":"failed","error":{"code":"server_error","message":"The server had an error while processing your request."},"output":[]})";
    case Wire::kAnthropicMessages:
      return R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})";
  }
  return "";
}

struct ErrorText {
  int status;
  std::string openai_code;
  std::string anthropic_type;
  std::string message;
};

ErrorText error_text(HttpFault fault) {
  switch (fault) {
    case HttpFault::kRateLimit:
      return {429, "rate_limit_exceeded", "rate_limit_error", "Rate limit reached for requests"};
    case HttpFault::kQuota:
      return {429, "insufficient_quota", "billing_error",
              "You exceeded your current quota, please check your plan and billing details."};
    case HttpFault::kServerError:
      return {500, "server_error", "api_error",
              "The server had an error while processing your request."};
    case HttpFault::kBadGateway:
      return {502, "bad_gateway", "api_error", "Bad gateway"};
    case HttpFault::kUnavailable:
      return {503, "service_unavailable", "api_error", "Service temporarily unavailable"};
    case HttpFault::kOverloaded:
      return {529, "overloaded", "overloaded_error", "Overloaded"};
    case HttpFault::kAuth:
      return {401, "invalid_api_key", "authentication_error", "Incorrect API key provided"};
    case HttpFault::kContextOverflow:
      return {400, "context_length_exceeded", "invalid_request_error",
              "This model's maximum context length is 8192 tokens. However, your messages "
              "resulted in 9000 tokens."};
    case HttpFault::kPayloadTooLarge:
      return {413, "request_too_large", "request_too_large",
              "Request exceeds the maximum allowed number of bytes."};
  }
  return {500, "", "api_error", ""};
}

}  // namespace

std::string_view api_mode(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return "chat_completions";
    case Wire::kResponses:
      return "codex_responses";
    case Wire::kAnthropicMessages:
      return "anthropic_messages";
  }
  return "";
}

std::string_view wire_name(Wire wire) {
  switch (wire) {
    case Wire::kChatCompletions:
      return "chat";
    case Wire::kResponses:
      return "responses";
    case Wire::kAnthropicMessages:
      return "anthropic";
  }
  return "";
}

MockResponse WireScript::text(const std::string& content) const {
  switch (wire_) {
    case Wire::kChatCompletions:
      return closing(chat::text(content, stream_));
    case Wire::kResponses:
      return closing(responses::text(content, stream_));
    case Wire::kAnthropicMessages:
      return closing(anthropic::text(content, stream_));
  }
  return {};
}

MockResponse WireScript::tool_call(const MockToolCall& call) const {
  switch (wire_) {
    case Wire::kChatCompletions:
      return closing(chat::tool_calls({call}, stream_));
    case Wire::kResponses:
      return closing(responses::tool_calls({call}, stream_));
    case Wire::kAnthropicMessages:
      return closing(anthropic::tool_calls({call}, stream_));
  }
  return {};
}

MockResponse WireScript::summary(const std::string& content) const {
  return WireScript(wire_, false).text(content);
}

MockResponse WireScript::http_error(HttpFault fault, const Headers& headers) const {
  const ErrorText e = error_text(fault);
  switch (wire_) {
    case Wire::kChatCompletions:
      return closing(chat::error(e.status, e.message, e.openai_code, headers));
    case Wire::kResponses:
      return closing(responses::error(e.status, e.message, e.openai_code, headers));
    case Wire::kAnthropicMessages:
      return closing(anthropic::error(e.status, e.anthropic_type, e.message, headers));
  }
  return {};
}

MockResponse WireScript::cut_text(const std::string& content) const {
  MockResponse response = text(content);
  if (!stream_) {
    split_body(response, response.body.size() / 2);
    response.drop_after_chunks = 1;
    return response;
  }
  response.drop_after_chunks = chunk_with(response, second_word(content)) + 1;
  return response;
}

MockResponse WireScript::cut_tool_call(const MockToolCall& call) const {
  MockResponse response = tool_call(call);
  if (!stream_) {
    const std::string key = wire_ == Wire::kAnthropicMessages ? "\"input\"" : "\"arguments\"";
    const std::size_t inside_arguments = response.body.find(key) + key.size() + 6;
    split_body(response, inside_arguments);
    response.drop_after_chunks = 1;
    return response;
  }
  // Every fragment but the last arrives: the arguments are started, not finished.
  response.drop_after_chunks = last_chunk_with(response, arguments_marker(wire_));
  return response;
}

MockResponse WireScript::unterminated_tool_call(const MockToolCall& call) const {
  MockResponse response = tool_call(call);
  if (!stream_) {
    split_body(response, response.body.size() - 1);
    response.drop_after_chunks = 1;
    return response;
  }
  response.drop_after_chunks = chunk_with(response, tool_call_end_marker(wire_));
  return response;
}

MockResponse WireScript::stalled_text(const std::string& content,
                                      std::chrono::milliseconds stall) const {
  MockResponse response = text(content);
  if (!stream_) split_body(response, response.body.size() / 2);
  response.stall_after_chunks = stream_ ? chunk_with(response, second_word(content)) + 1 : 1;
  response.stall = stall;
  return response;
}

MockResponse WireScript::malformed_text(const std::string& content) const {
  MockResponse response = text(content);
  if (!stream_) {
    response.body.resize(response.body.size() / 2);
    return response;
  }
  const std::size_t at = chunk_with(response, second_word(content)) + 1;
  response.chunks.insert(response.chunks.begin() + static_cast<std::ptrdiff_t>(at),
                         broken_event(wire_));
  return response;
}

MockResponse WireScript::error_in_ok_response() const {
  if (!stream_) {
    MockResponse response;
    response.body = error_body(wire_);
    return closing(std::move(response));
  }
  const std::string content = "Partial answer before the failure";
  MockResponse response = text(content);
  response.chunks.resize(chunk_with(response, second_word(content)) + 1);
  for (std::string& event : error_events(wire_)) response.chunks.push_back(std::move(event));
  return response;
}

MockResponse reset_before_headers() {
  MockResponse response;
  response.close_before_headers = true;
  response.reset_connection = true;
  return response;
}

MockResponse slow_first_byte(MockResponse response, std::chrono::milliseconds delay) {
  response.first_byte_delay = delay;
  return response;
}

}  // namespace hermes::testing
