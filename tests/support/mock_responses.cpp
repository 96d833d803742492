// Chat Completions responses shaped as OpenAI sends them, and SSE transcripts from files.
#include "support/mock_responses.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/mock_fragments.hpp"

namespace hermes::testing {
namespace {

constexpr const char* kFingerprint = "fp_mock";

std::string next_completion_id() {
  return next_mock_id("chatcmpl-mock");
}

OrderedJson usage_json(const MockUsage& usage) {
  return {{"prompt_tokens", usage.prompt_tokens},
          {"completion_tokens", usage.completion_tokens},
          {"total_tokens", usage.prompt_tokens + usage.completion_tokens},
          {"prompt_tokens_details", {{"cached_tokens", usage.cached_tokens}}},
          {"completion_tokens_details", {{"reasoning_tokens", usage.reasoning_tokens}}}};
}

OrderedJson tool_call_json(const MockToolCall& call) {
  return {{"id", call.id},
          {"type", "function"},
          {"function", {{"name", call.name}, {"arguments", call.arguments}}}};
}

MockResponse completion(const OrderedJson& content, const std::vector<MockToolCall>& calls,
                        const MockUsage& usage, const std::string& finish_reason) {
  OrderedJson message = {{"role", "assistant"}, {"content", content}, {"refusal", nullptr}};
  if (!calls.empty()) {
    OrderedJson list = OrderedJson::array();
    for (const MockToolCall& call : calls) list.push_back(tool_call_json(call));
    message["tool_calls"] = std::move(list);
  }
  OrderedJson choice = {{"index", 0},
                        {"message", std::move(message)},
                        {"logprobs", nullptr},
                        {"finish_reason", finish_reason}};
  return json_response({{"id", next_completion_id()},
                        {"object", "chat.completion"},
                        {"created", kMockCreated},
                        {"model", kMockModel},
                        {"choices", OrderedJson::array({std::move(choice)})},
                        {"usage", usage_json(usage)},
                        {"system_fingerprint", kFingerprint}});
}

// Writes the SSE events of one streamed completion.
class ChunkStream {
 public:
  ChunkStream() : id_(next_completion_id()) {}

  void delta(OrderedJson delta, const OrderedJson& finish_reason = nullptr) {
    OrderedJson choice = {{"index", 0},
                          {"delta", std::move(delta)},
                          {"logprobs", nullptr},
                          {"finish_reason", finish_reason}};
    OrderedJson chunk = envelope();
    chunk["choices"] = OrderedJson::array({std::move(choice)});
    chunk["usage"] = nullptr;
    event(chunk);
  }

  void usage(const MockUsage& usage) {
    OrderedJson chunk = envelope();
    chunk["choices"] = OrderedJson::array();
    chunk["usage"] = usage_json(usage);
    event(chunk);
  }

  MockResponse finish() {
    response_.chunks.push_back("data: [DONE]\n\n");
    response_.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
    return std::move(response_);
  }

 private:
  OrderedJson envelope() const {
    return {{"id", id_},
            {"object", "chat.completion.chunk"},
            {"created", kMockCreated},
            {"model", kMockModel},
            {"system_fingerprint", kFingerprint}};
  }
  void event(const OrderedJson& chunk) {
    response_.chunks.push_back("data: " + dump(chunk) + "\n\n");
  }

  std::string id_;
  MockResponse response_;
};

void stream_content(ChunkStream& stream, const std::string& content) {
  for (std::string& word : split_words(content)) stream.delta({{"content", std::move(word)}});
}

void stream_tool_call(ChunkStream& stream, int index, const MockToolCall& call) {
  OrderedJson first = {{"index", index},
                       {"id", call.id},
                       {"type", "function"},
                       {"function", {{"name", call.name}, {"arguments", ""}}}};
  stream.delta({{"tool_calls", OrderedJson::array({std::move(first)})}});
  for (std::string& piece : split_fragments(call.arguments)) {
    OrderedJson fragment = {{"index", index}, {"function", {{"arguments", std::move(piece)}}}};
    stream.delta({{"tool_calls", OrderedJson::array({std::move(fragment)})}});
  }
}

// One chunk per event: an event ends with its blank line, whose bytes stay with it.
std::vector<std::string> split_sse_events(const std::string& text) {
  std::vector<std::string> events;
  std::string current;
  bool has_content = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t newline = text.find('\n', start);
    std::size_t end = newline == std::string::npos ? text.size() : newline + 1;
    std::string_view line(text.data() + start, end - start);
    bool blank = line == "\n" || line == "\r\n";
    current.append(line);
    if (blank && has_content) {
      events.push_back(std::move(current));
      current.clear();
      has_content = false;
    } else if (!blank) {
      has_content = true;
    }
    start = end;
  }
  if (!current.empty()) events.push_back(std::move(current));
  return events;
}

}  // namespace

namespace chat {

MockResponse text(const std::string& content, bool stream, const MockUsage& usage,
                  const std::string& finish_reason) {
  if (!stream) return completion(content, {}, usage, finish_reason);
  ChunkStream chunks;
  chunks.delta({{"role", "assistant"}, {"content", ""}});
  stream_content(chunks, content);
  chunks.delta(OrderedJson::object(), finish_reason);
  chunks.usage(usage);
  return chunks.finish();
}

MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content, const MockUsage& usage,
                        const std::string& finish_reason) {
  std::vector<MockToolCall> named = with_ids(calls);
  OrderedJson content_json = content.empty() ? OrderedJson(nullptr) : OrderedJson(content);
  if (!stream) return completion(content_json, named, usage, finish_reason);
  ChunkStream chunks;
  OrderedJson opening = content.empty() ? OrderedJson(nullptr) : OrderedJson("");
  chunks.delta({{"role", "assistant"}, {"content", std::move(opening)}});
  stream_content(chunks, content);
  for (std::size_t i = 0; i < named.size(); ++i) {
    stream_tool_call(chunks, static_cast<int>(i), named[i]);
  }
  chunks.delta(OrderedJson::object(), finish_reason);
  chunks.usage(usage);
  return chunks.finish();
}

MockResponse error(int status, const std::string& message, const std::string& code,
                   const std::vector<std::pair<std::string, std::string>>& headers) {
  OrderedJson detail = {{"message", message},
                        {"type", status >= 500 ? "server_error" : "invalid_request_error"},
                        {"param", nullptr},
                        {"code", code.empty() ? OrderedJson(nullptr) : OrderedJson(code)}};
  MockResponse response = json_response({{"error", std::move(detail)}});
  response.status = status;
  response.headers.insert(response.headers.end(), headers.begin(), headers.end());
  return response;
}

}  // namespace chat

MockResponse sse_fixture(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read SSE fixture " + path);
  std::ostringstream text;
  text << file.rdbuf();
  MockResponse response;
  response.headers = {{"Content-Type", "text/event-stream"}};
  response.chunks = split_sse_events(text.str());
  return response;
}

}  // namespace hermes::testing
