// Anthropic Messages answers, shaped as Anthropic sends them, and the metadata answers of
// model servers.
#include <utility>

#include "support/mock_fragments.hpp"
#include "support/mock_responses.hpp"

namespace hermes::testing {
namespace anthropic {
namespace {

constexpr const char* kClaudeModel = "claude-mock-4-5";

// Anthropic counts input after the cache: reads are reported apart from input_tokens.
OrderedJson usage_json(const MockUsage& usage, bool opening) {
  return {{"input_tokens", usage.prompt_tokens - usage.cached_tokens},
          {"cache_creation_input_tokens", 0},
          {"cache_read_input_tokens", usage.cached_tokens},
          {"output_tokens", opening ? 1 : usage.completion_tokens}};
}

OrderedJson blocks_of(const std::string& content, const std::vector<MockToolCall>& calls,
                      const std::optional<MockThinking>& thinking) {
  OrderedJson blocks = OrderedJson::array();
  if (thinking) {
    const std::string signature =
        thinking->signature.empty() ? next_mock_id("c2lnLW1vY2s=") : thinking->signature;
    blocks.push_back(
        {{"type", "thinking"}, {"thinking", thinking->thinking}, {"signature", signature}});
  }
  if (!content.empty()) blocks.push_back({{"type", "text"}, {"text", content}});
  for (const MockToolCall& call : calls) {
    OrderedJson input = OrderedJson::parse(call.arguments, nullptr, false);
    blocks.push_back({{"type", "tool_use"},
                      {"id", call.id},
                      {"name", call.name},
                      {"input", input.is_object() ? input : OrderedJson::object()}});
  }
  return blocks;
}

class MessageStream {
 public:
  void event(const char* type, const OrderedJson& fields) {
    OrderedJson payload = {{"type", type}};
    for (const auto& [key, value] : fields.items()) payload[key] = value;
    events.push_back(sse_event(type, payload));
  }

  // One content block: its start, its deltas, its stop.
  void block(int index, const OrderedJson& block, const std::string& raw_arguments) {
    const std::string type = block["type"];
    OrderedJson opening = block;
    if (type == "thinking") opening = {{"type", "thinking"}, {"thinking", ""}, {"signature", ""}};
    if (type == "text") opening = {{"type", "text"}, {"text", ""}};
    if (type == "tool_use") opening["input"] = OrderedJson::object();
    event("content_block_start", {{"index", index}, {"content_block", opening}});
    if (type == "thinking") {
      for (std::string& word : split_words(block["thinking"])) {
        delta(index, {{"type", "thinking_delta"}, {"thinking", word}});
      }
      delta(index, {{"type", "signature_delta"}, {"signature", block["signature"]}});
    } else if (type == "text") {
      for (std::string& word : split_words(block["text"])) {
        delta(index, {{"type", "text_delta"}, {"text", word}});
      }
    } else if (type == "tool_use") {
      delta(index, {{"type", "input_json_delta"}, {"partial_json", ""}});
      for (std::string& piece : split_fragments(raw_arguments)) {
        delta(index, {{"type", "input_json_delta"}, {"partial_json", piece}});
      }
    }
    event("content_block_stop", {{"index", index}});
  }

  std::vector<std::string> events;

 private:
  void delta(int index, const OrderedJson& delta) {
    event("content_block_delta", {{"index", index}, {"delta", delta}});
  }
};

OrderedJson message_json(const std::string& id, OrderedJson content, const OrderedJson& stop_reason,
                         const OrderedJson& usage) {
  return {{"id", id},
          {"type", "message"},
          {"role", "assistant"},
          {"model", kClaudeModel},
          {"content", std::move(content)},
          {"stop_reason", stop_reason},
          {"stop_sequence", nullptr},
          {"usage", usage}};
}

MockResponse answer(const std::string& content, const std::vector<MockToolCall>& calls, bool stream,
                    const MockUsage& usage, const std::optional<MockThinking>& thinking,
                    const std::string& stop_reason) {
  const OrderedJson blocks = blocks_of(content, calls, thinking);
  const std::string id = next_mock_id("msg_mock");
  if (!stream)
    return json_response(message_json(id, blocks, stop_reason, usage_json(usage, false)));
  MessageStream stream_events;
  stream_events.event(
      "message_start",
      {{"message", message_json(id, OrderedJson::array(), nullptr, usage_json(usage, true))}});
  std::size_t call = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const bool is_call = blocks[i]["type"] == "tool_use";
    stream_events.block(static_cast<int>(i), blocks[i], is_call ? calls[call++].arguments : "");
    if (i == 0) stream_events.event("ping", OrderedJson::object());
  }
  stream_events.event("message_delta",
                      {{"delta", {{"stop_reason", stop_reason}, {"stop_sequence", nullptr}}},
                       {"usage", {{"output_tokens", usage.completion_tokens}}}});
  stream_events.event("message_stop", OrderedJson::object());
  return sse_response(std::move(stream_events.events));
}

}  // namespace

MockResponse text(const std::string& content, bool stream, const MockUsage& usage,
                  const std::optional<MockThinking>& thinking, const std::string& stop_reason) {
  return answer(content, {}, stream, usage, thinking, stop_reason);
}

MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content, const MockUsage& usage,
                        const std::optional<MockThinking>& thinking) {
  return answer(content, with_ids(calls, "toolu_mock"), stream, usage, thinking, "tool_use");
}

MockResponse error(int status, const std::string& type, const std::string& message,
                   const std::vector<std::pair<std::string, std::string>>& headers) {
  MockResponse response = json_response({{"type", "error"},
                                         {"error", {{"type", type}, {"message", message}}},
                                         {"request_id", next_mock_id("req_mock")}},
                                        status);
  response.headers.insert(response.headers.end(), headers.begin(), headers.end());
  return response;
}

}  // namespace anthropic

namespace metadata {

MockResponse models(const Json& entries) {
  return json_response({{"object", "list"}, {"data", OrderedJson::parse(entries.dump())}});
}

MockResponse llamacpp_props(int64_t n_ctx) {
  return json_response(
      {{"default_generation_settings", {{"n_ctx", n_ctx}, {"params", OrderedJson::object()}}},
       {"total_slots", 1},
       {"model_path", "/models/mock.gguf"}});
}

MockResponse ollama_show(const std::string& architecture, int64_t context_length,
                         std::optional<int64_t> num_ctx) {
  std::string parameters =
      "temperature                    0.7\nstop                           \"<|im_end|>\"";
  if (num_ctx)
    parameters = "num_ctx                        " + std::to_string(*num_ctx) + "\n" + parameters;
  return json_response({{"modelfile", "FROM /models/mock.gguf"},
                        {"parameters", parameters},
                        {"details", {{"family", architecture}}},
                        {"model_info",
                         {{"general.architecture", architecture},
                          {architecture + ".context_length", context_length},
                          {architecture + ".embedding_length", 4096}}}});
}

}  // namespace metadata
}  // namespace hermes::testing
