// OpenAI Responses API answers, shaped as OpenAI sends them.
#include <utility>

#include "support/mock_fragments.hpp"
#include "support/mock_responses.hpp"

namespace hermes::testing::responses {
namespace {

OrderedJson usage_json(const MockUsage& usage) {
  return {{"input_tokens", usage.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", usage.cached_tokens}}},
          {"output_tokens", usage.completion_tokens},
          {"output_tokens_details", {{"reasoning_tokens", usage.reasoning_tokens}}},
          {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

OrderedJson reasoning_item(const MockReasoning& reasoning) {
  const std::string blob = reasoning.encrypted_content.empty() ? next_mock_id("gAAAA-mock-")
                                                               : reasoning.encrypted_content;
  return {
      {"id", next_mock_id("rs_mock")},
      {"type", "reasoning"},
      {"summary", OrderedJson::array({{{"type", "summary_text"}, {"text", reasoning.summary}}})},
      {"encrypted_content", blob}};
}

OrderedJson message_item(const std::string& content) {
  OrderedJson part = {
      {"type", "output_text"}, {"text", content}, {"annotations", OrderedJson::array()}};
  return {{"id", next_mock_id("msg_mock")},
          {"type", "message"},
          {"status", "completed"},
          {"role", "assistant"},
          {"content", OrderedJson::array({std::move(part)})}};
}

OrderedJson call_item(const MockToolCall& call) {
  return {{"id", "fc_" + call.id},       {"type", "function_call"}, {"status", "completed"},
          {"arguments", call.arguments}, {"call_id", call.id},      {"name", call.name}};
}

OrderedJson response_json(const std::string& id, const char* status, OrderedJson output,
                          const OrderedJson& usage) {
  return {{"id", id},
          {"object", "response"},
          {"created_at", kMockCreated},
          {"status", status},
          {"error", nullptr},
          {"incomplete_details", nullptr},
          {"model", kMockModel},
          {"output", std::move(output)},
          {"store", false},
          {"usage", usage}};
}

// Writes the events of one streamed response, numbering them.
class ResponseStream {
 public:
  explicit ResponseStream(std::string id) : id_(std::move(id)) {
    event("response.created",
          {{"response", response_json(id_, "in_progress", OrderedJson::array(), nullptr)}});
  }

  void reasoning(const OrderedJson& item) {
    const int index =
        begin_item({{"id", item["id"]}, {"type", "reasoning"}, {"summary", OrderedJson::array()}});
    const std::string text = item["summary"][0]["text"];
    for (std::string& word : split_words(text)) {
      event("response.reasoning_summary_text.delta", {{"item_id", item["id"]},
                                                      {"output_index", index},
                                                      {"summary_index", 0},
                                                      {"delta", word}});
    }
    event("response.reasoning_summary_text.done",
          {{"item_id", item["id"]}, {"output_index", index}, {"summary_index", 0}, {"text", text}});
    end_item(index, item);
  }

  void message(const OrderedJson& item) {
    OrderedJson opening = item;
    opening["status"] = "in_progress";
    opening["content"] = OrderedJson::array();
    const int index = begin_item(std::move(opening));
    const std::string text = item["content"][0]["text"];
    for (std::string& word : split_words(text)) {
      event("response.output_text.delta", {{"item_id", item["id"]},
                                           {"output_index", index},
                                           {"content_index", 0},
                                           {"delta", word}});
    }
    event("response.output_text.done",
          {{"item_id", item["id"]}, {"output_index", index}, {"content_index", 0}, {"text", text}});
    end_item(index, item);
  }

  void call(const OrderedJson& item) {
    OrderedJson opening = item;
    opening["status"] = "in_progress";
    opening["arguments"] = "";
    const int index = begin_item(std::move(opening));
    const std::string arguments = item["arguments"];
    for (std::string& piece : split_fragments(arguments)) {
      event("response.function_call_arguments.delta",
            {{"item_id", item["id"]}, {"output_index", index}, {"delta", piece}});
    }
    event("response.function_call_arguments.done", {{"item_id", item["id"]},
                                                    {"output_index", index},
                                                    {"name", item["name"]},
                                                    {"arguments", arguments}});
    end_item(index, item);
  }

  MockResponse finish(const OrderedJson& output, const MockUsage& usage) {
    event("response.completed",
          {{"response", response_json(id_, "completed", output, usage_json(usage))}});
    return sse_response(std::move(events_));
  }

 private:
  void event(const char* type, const OrderedJson& fields) {
    OrderedJson payload = {{"type", type}, {"sequence_number", sequence_++}};
    for (const auto& [key, value] : fields.items()) payload[key] = value;
    events_.push_back(sse_event(type, payload));
  }
  int begin_item(OrderedJson item) {
    const int index = next_index_++;
    event("response.output_item.added", {{"output_index", index}, {"item", std::move(item)}});
    return index;
  }
  void end_item(int index, const OrderedJson& item) {
    event("response.output_item.done", {{"output_index", index}, {"item", item}});
  }

  std::string id_;
  int sequence_ = 0;
  int next_index_ = 0;
  std::vector<std::string> events_;
};

MockResponse answer(const std::string& content, const std::vector<MockToolCall>& calls, bool stream,
                    const MockUsage& usage, const std::optional<MockReasoning>& reasoning) {
  OrderedJson output = OrderedJson::array();
  if (reasoning) output.push_back(reasoning_item(*reasoning));
  if (!content.empty()) output.push_back(message_item(content));
  for (const MockToolCall& call : calls) output.push_back(call_item(call));
  const std::string id = next_mock_id("resp_mock");
  if (!stream) return json_response(response_json(id, "completed", output, usage_json(usage)));
  ResponseStream events(id);
  for (const OrderedJson& item : output) {
    const std::string type = item["type"];
    if (type == "reasoning") events.reasoning(item);
    if (type == "message") events.message(item);
    if (type == "function_call") events.call(item);
  }
  return events.finish(output, usage);
}

}  // namespace

MockResponse text(const std::string& content, bool stream, const MockUsage& usage,
                  const std::optional<MockReasoning>& reasoning) {
  return answer(content, {}, stream, usage, reasoning);
}

MockResponse tool_calls(const std::vector<MockToolCall>& calls, bool stream,
                        const std::string& content, const MockUsage& usage,
                        const std::optional<MockReasoning>& reasoning) {
  return answer(content, with_ids(calls), stream, usage, reasoning);
}

MockResponse error(int status, const std::string& message, const std::string& code,
                   const std::vector<std::pair<std::string, std::string>>& headers) {
  OrderedJson detail = {{"message", message},
                        {"type", status >= 500 ? "server_error" : "invalid_request_error"},
                        {"param", nullptr},
                        {"code", code.empty() ? OrderedJson(nullptr) : OrderedJson(code)}};
  MockResponse response = json_response({{"error", std::move(detail)}}, status);
  response.headers.insert(response.headers.end(), headers.begin(), headers.end());
  return response;
}

}  // namespace hermes::testing::responses
