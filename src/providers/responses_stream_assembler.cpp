#include "providers/responses_stream_assembler.hpp"

#include <utility>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/error_body.hpp"
#include "providers/responses_output.hpp"

namespace hermes::internal {
namespace {

bool is_terminal(std::string_view type) {
  return type == "response.completed" || type == "response.incomplete" || type == "response.failed";
}

bool is_call(std::string_view type) {
  return type == "function_call" || type == "custom_tool_call";
}

}  // namespace

ResponsesStreamAssembler::ResponsesStreamAssembler(std::string issuer,
                                                   const StreamCallback* on_event)
    : issuer_(std::move(issuer)), on_event_(on_event) {}

bool ResponsesStreamAssembler::add_event(const SseEvent& event) {
  if (error_) return false;
  if (answer_) return true;  // Nothing follows a terminal event.
  if (event.has_error) {
    fail(responses_error(parse_json(event.error).value_or(Json()),
                         "the server reported an error without details"));
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
  dispatch(event_.type.empty() ? event.event : event_.type, data);
  return !error_;
}

void ResponsesStreamAssembler::dispatch(std::string_view type, std::string_view json) {
  if (type == "response.output_item.added") {
    item_added(/*done=*/false);
  } else if (type == "response.output_item.done") {
    item_added(/*done=*/true);
  } else if (type == "response.output_text.delta") {
    text_delta();
  } else if (type == "response.reasoning_summary_text.delta" ||
             type == "response.reasoning_text.delta") {
    reasoning_delta();
  } else if (type == "response.function_call_arguments.delta" ||
             type == "response.custom_tool_call_input.delta") {
    arguments_delta();
  } else if (type == "response.function_call_arguments.done") {
    item_for(event_.output_index, event_.item_id).arguments = event_.arguments;
  } else if (is_terminal(type)) {
    terminal();
  } else if (type == "error") {
    fail(responses_error(parse_json(json).value_or(Json()),
                         "the server reported an error without details"));
  }
  // Everything else (created, in_progress, content parts, refusals, built-in tool
  // progress) adds nothing the terminal response does not carry.
}

ResponsesStreamAssembler::Item& ResponsesStreamAssembler::item_for(std::optional<int> output_index,
                                                                   std::string_view item_id) {
  for (Item& item : items_) {
    const bool same_index = output_index && item.output_index == output_index;
    const bool same_id = !item_id.empty() && item.id == item_id;
    if (!same_index && !same_id) continue;
    if (!item.output_index) item.output_index = output_index;
    if (item.id.empty()) item.id = item_id;
    return item;
  }
  Item& item = items_.emplace_back();
  item.output_index = output_index;
  item.id = item_id;
  if (items_.size() > static_cast<std::size_t>(kMaxAnswerParts)) {
    fail_invalid("the answer opened more than " + std::to_string(kMaxAnswerParts) + " output items",
                 {});
  }
  return item;
}

void ResponsesStreamAssembler::item_added(bool done) {
  auto parsed = parse_json(event_.item);
  if (!parsed || !parsed->is_object()) return;
  const std::string id = string_member(*parsed, "id");
  Item& item = item_for(event_.output_index, id.empty() ? event_.item_id : id);
  if (item.id.empty()) item.id = id;
  item.type = string_member(*parsed, "type");
  item.phase = lower_ascii(string_member(*parsed, "phase"));
  if (is_call(item.type) && item.tool_slot < 0) {
    item.tool_slot = tool_calls_++;
    std::string call_id = string_member(*parsed, "call_id");
    std::string name = string_member(*parsed, "name");
    StreamEvent start;
    start.kind = StreamEvent::Kind::kToolCallStart;
    start.index = item.tool_slot;
    start.id = call_id;
    start.name = name;
    emit(start);
  }
  if (done) item.done = std::move(*parsed);
}

void ResponsesStreamAssembler::text_delta() {
  if (event_.delta.empty()) return;
  Item& item = item_for(event_.output_index, event_.item_id);
  item.text += event_.delta;
  StreamEvent event;
  // Commentary is narration of progress: it belongs with the reasoning.
  const bool commentary = item.phase == "commentary" || item.phase == "analysis";
  event.kind = commentary ? StreamEvent::Kind::kReasoningDelta : StreamEvent::Kind::kTextDelta;
  event.text = event_.delta;
  emit(event);
}

void ResponsesStreamAssembler::reasoning_delta() {
  if (event_.delta.empty()) return;
  StreamEvent event;
  event.kind = StreamEvent::Kind::kReasoningDelta;
  event.text = event_.delta;
  emit(event);
}

void ResponsesStreamAssembler::arguments_delta() {
  Item& item = item_for(event_.output_index, event_.item_id);
  item.arguments += event_.delta;
  if (item.tool_slot < 0 || event_.delta.empty()) return;
  StreamEvent event;
  event.kind = StreamEvent::Kind::kToolCallDelta;
  event.index = item.tool_slot;
  event.text = event_.delta;
  emit(event);
}

// The items the stream delivered whole, for a terminal response that lists none. A
// message whose done event never came is rebuilt from its text deltas.
Json ResponsesStreamAssembler::streamed_items() const {
  Json items = Json::array();
  for (const Item& item : items_) {
    if (item.done.is_object()) {
      items.push_back(item.done);
    } else if (item.type == "message" && !item.text.empty()) {
      Json message = {{"type", "message"},
                      {"role", "assistant"},
                      {"status", "completed"},
                      {"content", Json::array({{{"type", "output_text"}, {"text", item.text}}})}};
      if (!item.id.empty()) message["id"] = item.id;
      if (!item.phase.empty()) message["phase"] = item.phase;
      items.push_back(std::move(message));
    }
  }
  return items;
}

void ResponsesStreamAssembler::terminal() {
  auto response = parse_json(event_.response);
  if (!response || !response->is_object()) {
    fail_invalid(json_nesting_exceeds(event_.response)
                     ? "a terminal event whose response is " + json_too_deep_message()
                     : std::string("a terminal event without a response object"),
                 event_.response);
    return;
  }
  Result<ProviderResponse> answer = read_responses_answer(*response, streamed_items(), issuer_);
  if (!answer.ok()) {
    const ApiError* error = answer.status().api_error();
    fail(error ? *error : ApiError{});
    return;
  }
  answer_ = std::move(*answer);
  if (answer_->usage.reported) {
    StreamEvent usage;
    usage.kind = StreamEvent::Kind::kUsage;
    usage.usage = &answer_->usage;
    emit(usage);
  }
  StreamEvent finish;
  finish.kind = StreamEvent::Kind::kFinish;
  finish.finish_reason = answer_->message.finish_reason;
  emit(finish);
}

void ResponsesStreamAssembler::add_body(std::string_view body) {
  is_body_ = true;
  auto response = parse_json(trim_ascii(body));
  if (!response || !response->is_object()) {
    fail_invalid(json_nesting_exceeds(body) ? "the response body is " + json_too_deep_message()
                                            : std::string("the response body is not a JSON object"),
                 body);
    return;
  }
  const Json& error = response->contains("error") ? (*response)["error"] : Json();
  if (!error.is_null() && !response->contains("output")) {
    fail(responses_error(*response, "the server reported an error without details"));
    return;
  }
  Result<ProviderResponse> answer = read_responses_answer(*response, Json::array(), issuer_);
  if (!answer.ok()) {
    const ApiError* found = answer.status().api_error();
    fail(found ? *found : ApiError{});
    return;
  }
  answer_ = std::move(*answer);
}

void ResponsesStreamAssembler::fail(ApiError error) {
  if (!error_) error_ = std::move(error);
}

void ResponsesStreamAssembler::fail_invalid(std::string what, std::string_view payload) {
  ApiError error;
  error.error_code = "invalid_response";
  error.message = std::move(what);
  if (!payload.empty()) {
    error.message += ": " + truncate_utf8(payload, kMaxQuotedPayloadBytes);
    error.body = truncate_utf8(payload, kMaxErrorBodyBytes);
  }
  fail(std::move(error));
}

void ResponsesStreamAssembler::emit(const StreamEvent& event) const {
  if (on_event_ && *on_event_) (*on_event_)(event);
}

Result<ProviderResponse> ResponsesStreamAssembler::finish() {
  if (error_) return Status::api_error(*error_);
  if (!answer_) {
    ApiError cut;
    cut.transport = TransportFailure::kDisconnect;
    cut.message = is_body_ ? "the response body held no answer"
                           : "the stream ended before the answer was complete (no "
                             "response.completed, response.incomplete or response.failed)";
    return Status::api_error(std::move(cut));
  }
  return std::move(*answer_);
}

}  // namespace hermes::internal
