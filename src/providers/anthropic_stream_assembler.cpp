#include "providers/anthropic_stream_assembler.hpp"

#include <utility>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/error_body.hpp"

namespace hermes::internal {

bool AnthropicStreamAssembler::add_event(const SseEvent& event) {
  if (error_) return false;
  if (event.has_error) {
    fail(anthropic_error(parse_json(event.error).value_or(Json()), event.error));
    return false;
  }
  const std::string_view data = trim_ascii(event.data);
  // Some compatible servers end with a Chat Completions style [DONE]; it means nothing here.
  if (!event.has_data || data.empty() || data.substr(0, 6) == "[DONE]") return true;
  std::string reason;
  if (!reader_.read(data, event_, reason)) {
    fail_invalid("malformed JSON from the server (" + reason + ")", data);
    return false;
  }
  // The SDKs fall back to the SSE event name when the JSON has no type.
  dispatch(event_.type.empty() ? event.event : event_.type, data);
  return !error_;
}

void AnthropicStreamAssembler::dispatch(std::string_view type, std::string_view json) {
  if (type == "content_block_delta") {
    block_delta();
  } else if (type == "content_block_start") {
    block_started();
  } else if (type == "content_block_stop") {
    if (Block* block = block_at(event_.index)) block->stopped = true;
  } else if (type == "message_start") {
    message_started();
  } else if (type == "message_delta") {
    message_delta();
  } else if (type == "message_stop") {
    stopped_ = true;
  } else if (type == "error") {
    fail(anthropic_error(parse_json(json).value_or(Json()), json));
  }
  // ping and unknown events are keep-alives or features hermes does not use.
}

AnthropicStreamAssembler::Block* AnthropicStreamAssembler::block_at(std::optional<int> index) {
  const int at = index.value_or(0);
  // Indexes are small in practice; a larger one is a broken server, not a huge answer.
  if (at >= kMaxAnswerParts) {
    fail_invalid("a content block index out of range", {});
    return nullptr;
  }
  if (blocks_.size() <= static_cast<std::size_t>(at)) blocks_.resize(at + 1);
  return &blocks_[at];
}

void AnthropicStreamAssembler::block_started() {
  Block* block = block_at(event_.index);
  auto parsed = parse_json(event_.content_block);
  if (!block || !parsed || !parsed->is_object()) return;
  *block = Block();
  block->start = std::move(*parsed);
  // server_tool_use blocks are run by the server: nothing to execute here.
  if (string_member(block->start, "type") == "tool_use") {
    block->tool_slot = tool_calls_++;
    const std::string id = string_member(block->start, "id");
    const std::string name = string_member(block->start, "name");
    StreamEvent start;
    start.kind = StreamEvent::Kind::kToolCallStart;
    start.index = block->tool_slot;
    start.id = id;
    start.name = name;
    emit(start);
  }
}

void AnthropicStreamAssembler::block_delta() {
  Block* block = block_at(event_.index);
  if (!block) return;
  StreamEvent event;
  const std::string_view type = event_.delta_type;
  if (type == "text_delta" && !event_.text.empty()) {
    block->text += event_.text;
    event.kind = StreamEvent::Kind::kTextDelta;
    event.text = event_.text;
  } else if (type == "thinking_delta" && !event_.thinking.empty()) {
    block->thinking += event_.thinking;
    event.kind = StreamEvent::Kind::kReasoningDelta;
    event.text = event_.thinking;
  } else if (type == "signature_delta") {
    block->signature = event_.signature;  // Replaces: the signature arrives whole.
    return;
  } else if (type == "input_json_delta" && !event_.partial_json.empty()) {
    block->input += event_.partial_json;
    if (block->tool_slot < 0) return;
    event.kind = StreamEvent::Kind::kToolCallDelta;
    event.index = block->tool_slot;
    event.text = event_.partial_json;
  } else {
    return;  // Empty deltas, citations.
  }
  emit(event);
}

void AnthropicStreamAssembler::message_started() {
  auto message = parse_json(event_.message);
  if (!message || !message->is_object()) return;
  message_id_ = string_member(*message, "id");
  model_ = string_member(*message, "model");
  if (message->contains("usage")) usage_.update((*message)["usage"]);
}

void AnthropicStreamAssembler::message_delta() {
  if (!event_.stop_reason.empty()) stop_reason_ = event_.stop_reason;
  if (auto usage = parse_json(event_.usage)) {
    usage_.update(*usage);
    reported_usage_ = usage_.normalized();
    StreamEvent event;
    event.kind = StreamEvent::Kind::kUsage;
    event.usage = &reported_usage_;
    emit(event);
  }
  if (!stop_reason_.empty() && stop_reason_ != reported_stop_reason_) {
    reported_stop_reason_ = stop_reason_;
    const std::string reason = anthropic_finish_reason(stop_reason_, tool_calls_ > 0);
    StreamEvent event;
    event.kind = StreamEvent::Kind::kFinish;
    event.finish_reason = reason;
    emit(event);
  }
}

// The finished blocks in index order. A tool_use block that never stopped holds partial
// input and is left out.
AnthropicContent AnthropicStreamAssembler::content() const {
  AnthropicContent out;
  for (const Block& block : blocks_) {
    const std::string type = string_member(block.start, "type");
    if (type == "text") {
      out.blocks.push_back(
          {{"type", "text"}, {"text", string_member(block.start, "text") + block.text}});
    } else if (type == "thinking") {
      const std::string signature =
          block.signature.empty() ? string_member(block.start, "signature") : block.signature;
      out.blocks.push_back({{"type", "thinking"},
                            {"thinking", string_member(block.start, "thinking") + block.thinking},
                            {"signature", signature}});
    } else if (type == "redacted_thinking") {
      out.blocks.push_back(block.start);
    } else if (type == "tool_use" && block.stopped) {
      // An empty buffer means no arguments; text that does not parse stays as it came, so
      // the loop can tell the model its arguments were broken.
      const std::string_view text = trim_ascii(block.input);
      auto input = parse_json(text);
      out.arguments.push_back(text.empty() ? "{}" : std::string(block.input));
      out.blocks.push_back({{"type", "tool_use"},
                            {"id", string_member(block.start, "id")},
                            {"name", string_member(block.start, "name")},
                            {"input", input && input->is_object() ? *input : Json::object()}});
    }
  }
  return out;
}

void AnthropicStreamAssembler::add_body(std::string_view body) {
  auto message = parse_json(trim_ascii(body));
  if (!message || !message->is_object()) {
    fail_invalid(json_nesting_exceeds(body) ? "the response body is " + json_too_deep_message()
                                            : std::string("the response body is not a JSON object"),
                 body);
    return;
  }
  if (string_member(*message, "type") == "error" ||
      (message->contains("error") && !message->contains("content"))) {
    fail(anthropic_error(*message, body));
    return;
  }
  AnthropicContent content;
  const Json blocks = message->value("content", Json::array());
  if (blocks.is_array()) {
    for (const Json& block : blocks) {
      if (!block.is_object()) continue;
      content.blocks.push_back(block);
      if (string_member(block, "type") == "tool_use") {
        content.arguments.push_back(dump_json(block.value("input", Json::object())));
      }
    }
  }
  AnthropicUsage usage;
  if (message->contains("usage")) usage.update((*message)["usage"]);
  ProviderResponse answer =
      anthropic_answer(content, string_member(*message, "stop_reason"), usage);
  answer.response_id = string_member(*message, "id");
  answer.served_model = string_member(*message, "model");
  body_answer_ = std::move(answer);
}

void AnthropicStreamAssembler::fail(ApiError error) {
  if (!error_) error_ = std::move(error);
}

void AnthropicStreamAssembler::fail_invalid(std::string what, std::string_view payload) {
  ApiError error;
  error.error_code = "invalid_response";
  error.message = std::move(what);
  if (!payload.empty()) {
    error.message += ": " + truncate_utf8(payload, kMaxQuotedPayloadBytes);
    error.body = truncate_utf8(payload, kMaxErrorBodyBytes);
  }
  fail(std::move(error));
}

void AnthropicStreamAssembler::emit(const StreamEvent& event) const {
  if (on_event_ && *on_event_) (*on_event_)(event);
}

Result<ProviderResponse> AnthropicStreamAssembler::finish() {
  if (error_) return Status::api_error(*error_);
  if (body_answer_) return std::move(*body_answer_);
  if (!stopped_) {
    ApiError cut;
    cut.transport = TransportFailure::kDisconnect;
    cut.message = "the stream ended before the answer was complete (no message_stop)";
    return Status::api_error(std::move(cut));
  }
  ProviderResponse answer = anthropic_answer(content(), stop_reason_, usage_);
  answer.response_id = message_id_;
  answer.served_model = model_;
  return answer;
}

}  // namespace hermes::internal
