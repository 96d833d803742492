#include "providers/chat_stream_assembler.hpp"

#include "common/json_text.hpp"
#include "providers/error_body.hpp"

namespace hermes::internal {
namespace {

// A payload of the wrong shape: the loop treats these as invalid responses.
ApiError invalid_response(std::string what, std::string_view payload) {
  ApiError error;
  error.error_code = "invalid_response";
  error.message = std::move(what);
  if (!payload.empty()) {
    error.message += ": " + truncate_utf8(payload, kMaxQuotedPayloadBytes);
    error.body = truncate_utf8(payload, kMaxErrorBodyBytes);
  }
  return error;
}

// OpenRouter streams reasoning_details as word-sized fragments: consecutive text (or
// summary) entries of one type are one block, and later fragments fill in the
// signature, id, format or index the first one lacked. Encrypted entries stay whole.
void append_reasoning_detail(Json& details, Json detail) {
  if (!detail.is_object()) return;
  const std::string type = detail.value("type", "");
  const char* merge_key = type == "reasoning.text"      ? "text"
                          : type == "reasoning.summary" ? "summary"
                                                        : nullptr;
  if (merge_key && !details.empty() && details.back().is_object() &&
      details.back().value("type", "") == type && detail.contains(merge_key) &&
      detail[merge_key].is_string()) {
    Json& last = details.back();
    std::string merged = last.contains(merge_key) && last[merge_key].is_string()
                             ? last[merge_key].get<std::string>()
                             : std::string();
    merged += detail[merge_key].get_ref<const std::string&>();
    last[merge_key] = std::move(merged);
    for (const char* key : {"signature", "id", "format", "index"}) {
      const bool missing = !last.contains(key) || last[key].is_null() || last[key] == "";
      const bool offered = detail.contains(key) && !detail[key].is_null() && detail[key] != "";
      if (missing && offered) last[key] = detail[key];
    }
    return;
  }
  details.push_back(std::move(detail));
}

}  // namespace

std::string normalize_finish_reason(std::string_view reason) {
  if (reason == "function_call") return "tool_calls";  // The deprecated name.
  return std::string(reason);
}

bool ChatStreamAssembler::add_event(const SseEvent& event) {
  if (error_) return false;
  // llama.cpp before PR #16109 sent `error: {...}` lines instead of data.
  if (event.has_error) {
    fail_with_error_payload(event.error);
    return false;
  }
  if (event.event == "error") {
    fail_with_error_payload(event.data);
    return false;
  }
  const std::string_view data = trim_ascii(event.data);
  if (!event.has_data || data.empty() || done_) return true;
  if (data.substr(0, 6) == "[DONE]") {
    done_ = true;
    return true;
  }
  add_chunk(data, /*is_completion=*/false);
  return !error_;
}

void ChatStreamAssembler::add_completion(std::string_view body) {
  is_completion_ = true;
  // DeepSeek sends blank lines ahead of the JSON while a request waits in its queue.
  body = trim_ascii(body);
  if (body.empty()) {
    fail(invalid_response("the response body is empty", {}));
    return;
  }
  add_chunk(body, /*is_completion=*/true);
  if (!error_ && !chunk_.has_choice) fail(invalid_response("the response has no choices", body));
}

void ChatStreamAssembler::add_chunk(std::string_view json, bool is_completion) {
  std::string reason;
  if (!reader_.read(json, is_completion, chunk_, reason)) {
    fail(invalid_response("malformed JSON from the server (" + reason + ")", json));
    return;
  }
  if (chunk_.is_error) {
    fail_with_error_payload(json);
    return;
  }
  if (model_.empty()) model_ = chunk_.model;
  if (response_id_.empty()) response_id_ = chunk_.id;
  if (chunk_.has_choice) handle_choice(chunk_);
  if (error_) return;
  // Usage may ride on any chunk (vLLM's continuous usage stats): the last one wins.
  if (chunk_.has_usage) {
    usage_ = chunk_.usage;
    // A usage chunk without choices closes the stream, even if a proxy lost [DONE].
    if (!chunk_.has_choice) closing_usage_ = true;
    StreamEvent event;
    event.kind = StreamEvent::Kind::kUsage;
    event.usage = &usage_;
    emit(event);
  }
  if (!chunk_.finish_reason.empty() && !error_) {
    handle_finish_reason(chunk_.finish_reason, json);
  }
}

void ChatStreamAssembler::handle_choice(const ChatChunk& chunk) {
  if (!chunk.reasoning.empty()) {
    reasoning_ += chunk.reasoning;
    StreamEvent event;
    event.kind = StreamEvent::Kind::kReasoningDelta;
    event.text = chunk.reasoning;
    emit(event);
  }
  if (!chunk.reasoning_details.empty()) merge_reasoning_details(chunk.reasoning_details);
  if (!chunk.content.empty()) {
    content_ += chunk.content;
    StreamEvent event;
    event.kind = StreamEvent::Kind::kTextDelta;
    event.text = chunk.content;
    emit(event);
  }
  handle_tool_calls(chunk);
}

void ChatStreamAssembler::handle_tool_calls(const ChatChunk& chunk) {
  for (const ToolCallDelta& delta : chunk.tool_calls) {
    const ToolCallAccumulator::Update update = tool_calls_.apply(delta);
    if (tool_calls_.size() > static_cast<std::size_t>(kMaxAnswerParts)) {
      fail(invalid_response(
          "the answer opened more than " + std::to_string(kMaxAnswerParts) + " tool calls", {}));
      return;
    }
    if (update.started) {
      StreamEvent start;
      start.kind = StreamEvent::Kind::kToolCallStart;
      start.index = update.slot;
      start.id = tool_calls_.id(update.slot);
      start.name = tool_calls_.name(update.slot);
      emit(start);
    }
    if (!update.arguments.empty()) {
      StreamEvent piece;
      piece.kind = StreamEvent::Kind::kToolCallDelta;
      piece.index = update.slot;
      piece.text = update.arguments;
      emit(piece);
    }
  }
}

void ChatStreamAssembler::handle_finish_reason(std::string_view reason, std::string_view json) {
  // OpenRouter ends a failed stream with finish_reason "error" (its error object, when
  // there is one, was handled with the chunk).
  if (reason == "error" || reason == "error_finish") {
    ApiError error;
    error.message =
        "the provider ended the answer with finish_reason \"" + std::string(reason) + "\"";
    error.body = truncate_utf8(json, kMaxErrorBodyBytes);
    fail(std::move(error));
    return;
  }
  if (reason == "insufficient_system_resource") {  // DeepSeek under load.
    ApiError error;
    error.message =
        "the server ran out of resources before the answer was complete "
        "(finish_reason insufficient_system_resource)";
    error.body = truncate_utf8(json, kMaxErrorBodyBytes);
    fail(std::move(error));
    return;
  }
  const std::string normalized = normalize_finish_reason(reason);
  if (normalized == finish_reason_) return;
  finish_reason_ = normalized;
  StreamEvent event;
  event.kind = StreamEvent::Kind::kFinish;
  event.finish_reason = finish_reason_;
  emit(event);
}

void ChatStreamAssembler::merge_reasoning_details(std::string_view json) {
  auto parsed = parse_json(json);
  if (!parsed || !parsed->is_array()) return;
  if (is_completion_) {
    reasoning_details_ = std::move(*parsed);
    return;
  }
  if (!reasoning_details_.is_array()) reasoning_details_ = Json::array();
  for (Json& detail : *parsed) append_reasoning_detail(reasoning_details_, std::move(detail));
}

void ChatStreamAssembler::fail_with_error_payload(std::string_view json) {
  const ErrorBody body = read_error_body(json);
  ApiError error;
  error.message = best_error_message(body, json);
  if (error.message.empty()) error.message = "the server reported an error without details";
  error.body = truncate_utf8(json, kMaxErrorBodyBytes);
  error.error_code = body.code;
  error.http_status = body.status.value_or(0);
  fail(std::move(error));
}

void ChatStreamAssembler::fail(ApiError error) {
  if (!error_) error_ = std::move(error);
}

void ChatStreamAssembler::emit(const StreamEvent& event) const {
  if (on_event_ && *on_event_) (*on_event_)(event);
}

Result<ProviderResponse> ChatStreamAssembler::finish() {
  if (error_) return Status::api_error(*error_);
  if (!is_completion_ && !complete()) {
    ApiError cut;
    cut.transport = TransportFailure::kDisconnect;
    cut.message =
        "the stream ended before the answer was complete (no finish_reason, no "
        "[DONE], no closing usage chunk)";
    return Status::api_error(std::move(cut));
  }
  ProviderResponse response;
  Message& message = response.message;
  message.role = Role::kAssistant;
  message.content = std::move(content_);
  message.reasoning = std::move(reasoning_);
  message.reasoning_details = std::move(reasoning_details_);
  message.tool_calls = tool_calls_.finish();
  message.finish_reason = finish_reason_.empty()
                              ? (message.tool_calls.empty() ? "stop" : "tool_calls")
                              : std::move(finish_reason_);
  response.usage = usage_;
  response.served_model = std::move(model_);
  response.response_id = std::move(response_id_);
  return response;
}

}  // namespace hermes::internal
