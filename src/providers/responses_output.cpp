#include "providers/responses_output.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/json_text.hpp"
#include "common/sha256.hpp"
#include "common/text_utils.hpp"
#include "providers/error_body.hpp"

namespace hermes::internal {
namespace {

int64_t count_member(const Json& object, const char* key) {
  if (!object.is_object()) return 0;
  auto it = object.find(key);
  if (it == object.end()) return 0;
  return json_integer(*it).value_or(0);
}

bool unfinished(std::string_view status) {
  return status == "queued" || status == "in_progress" || status == "incomplete";
}

// Built-in tools the server runs itself. xAI leaves them in_progress inside completed
// responses; they say nothing about whether the model finished its turn.
bool is_server_side_call(std::string_view type) {
  return type == "web_search_call" || type == "file_search_call" ||
         type == "code_interpreter_call" || type == "image_generation_call" ||
         type == "computer_call" || type == "local_shell_call" || type == "mcp_call";
}

std::string joined_texts(const Json& parts, std::initializer_list<std::string_view> types,
                         std::string_view separator) {
  std::string out;
  if (!parts.is_array()) return out;
  for (const Json& part : parts) {
    const std::string type = string_member(part, "type");
    bool wanted = types.size() == 0;
    for (std::string_view t : types) wanted = wanted || type == t;
    const std::string text = string_member(part, "text");
    if (!wanted || text.empty()) continue;
    if (!out.empty()) out += separator;
    out += text;
  }
  return out;
}

std::string normalized_message_status(std::string status) {
  status = lower_ascii(trim_ascii(status));
  return status == "incomplete" || status == "in_progress" ? status : "completed";
}

// Codex models sometimes write a tool call as text ("to=functions.name {...}") instead of
// emitting a function_call item; such a turn did not do what it says.
bool leaks_tool_call(std::string_view text) {
  constexpr std::string_view kMarker = "to=functions.";
  for (std::size_t at = text.find(kMarker); at != std::string_view::npos;
       at = text.find(kMarker, at + 1)) {
    const bool boundary =
        at == 0 || std::string_view(" \t\r\n>|").find(text[at - 1]) != std::string_view::npos;
    const std::size_t next = at + kMarker.size();
    const bool named =
        next < text.size() &&
        (text[next] == '_' || (lower_ascii(text[next]) >= 'a' && lower_ascii(text[next]) <= 'z'));
    if (boundary && named) return true;
  }
  return false;
}

// What the output items add up to.
class OutputReader {
 public:
  explicit OutputReader(const std::string& issuer) : issuer_(issuer) {}

  void read(const Json& item);

  std::vector<std::string> content;
  std::vector<std::string> reasoning;
  Json reasoning_items = Json::array();
  Json message_items = Json::array();
  std::vector<ToolCall> tool_calls;
  bool incomplete_items = false;
  bool saw_commentary = false;
  bool saw_final_answer = false;
  bool saw_reasoning = false;

 private:
  void read_message(const Json& item, const std::string& status);
  void read_reasoning(const Json& item);
  void read_call(const Json& item, const std::string& type);

  const std::string& issuer_;
};

void OutputReader::read(const Json& item) {
  if (!item.is_object()) return;
  const std::string type = string_member(item, "type");
  const std::string status = lower_ascii(trim_ascii(string_member(item, "status")));
  if (unfinished(status) && !is_server_side_call(type)) incomplete_items = true;
  if (type == "message") {
    read_message(item, status);
  } else if (type == "reasoning") {
    read_reasoning(item);
  } else if ((type == "function_call" || type == "custom_tool_call") && !unfinished(status)) {
    read_call(item, type);
  }
}

void OutputReader::read_message(const Json& item, const std::string& status) {
  const std::string phase = lower_ascii(trim_ascii(string_member(item, "phase")));
  const bool commentary = phase == "commentary" || phase == "analysis";
  saw_commentary = saw_commentary || commentary;
  saw_final_answer = saw_final_answer || phase == "final_answer" || phase == "final";
  const std::string text(
      trim_ascii(joined_texts(item.value("content", Json()), {"output_text", "text"}, "")));
  if (text.empty()) return;
  // Commentary is progress narration, never the final answer: it goes to the reasoning
  // channel, and the item is kept for replay either way.
  (commentary ? reasoning : content).push_back(text);
  Json raw = {{"type", "message"},
              {"role", "assistant"},
              {"status", normalized_message_status(status)},
              {"content", Json::array({{{"type", "output_text"}, {"text", text}}})}};
  if (const std::string id = string_member(item, "id"); !id.empty()) raw["id"] = id;
  if (!phase.empty()) raw["phase"] = phase;
  message_items.push_back(std::move(raw));
}

void OutputReader::read_reasoning(const Json& item) {
  saw_reasoning = true;
  const Json summary = item.value("summary", Json());
  std::string text(trim_ascii(joined_texts(summary, {}, "\n")));
  if (text.empty()) text = trim_ascii(string_member(item, "text"));
  // llama.cpp puts raw reasoning in content[].reasoning_text with an empty summary.
  if (text.empty()) {
    text = trim_ascii(joined_texts(item.value("content", Json()), {"reasoning_text"}, "\n"));
  }
  if (!text.empty()) reasoning.push_back(text);
  const std::string encrypted = string_member(item, "encrypted_content");
  const std::string id = string_member(item, "id");
  // Transient items cannot be replayed; llama.cpp sends an empty blob that means nothing.
  if (encrypted.empty() || id.starts_with("rs_tmp_")) return;
  Json raw = {{"type", "reasoning"}, {"encrypted_content", encrypted}};
  if (!issuer_.empty()) raw["_issuer_kind"] = issuer_;
  if (!id.empty()) raw["id"] = id;
  Json parts = Json::array();
  if (summary.is_array()) {
    for (const Json& part : summary) {
      if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        parts.push_back({{"type", "summary_text"}, {"text", part["text"]}});
      }
    }
  }
  raw["summary"] = std::move(parts);
  reasoning_items.push_back(std::move(raw));
}

void OutputReader::read_call(const Json& item, const std::string& type) {
  ToolCall call;
  call.name = string_member(item, "name");
  const Json& arguments = item.value(type == "function_call" ? "arguments" : "input", Json());
  call.arguments = arguments.is_string() ? arguments.get<std::string>()
                                         : (arguments.is_null() ? "{}" : dump_json(arguments));
  call.id = std::string(trim_ascii(string_member(item, "call_id")));
  if (call.id.empty()) {
    const std::string item_id = string_member(item, "id");
    const std::size_t bar = item_id.find('|');
    if (bar != std::string::npos) {
      call.id = trim_ascii(item_id.substr(0, bar));
    } else if (!item_id.starts_with("fc_")) {
      call.id = item_id;
    }
  }
  if (call.id.empty()) {
    // Stable across retries, so the replayed prefix (and the prompt cache) stays the same.
    const std::string seed =
        call.name + '\0' + call.arguments + '\0' + std::to_string(tool_calls.size());
    call.id = "call_" + sha256_hex(seed).substr(0, 24);
  }
  tool_calls.push_back(std::move(call));
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    if (!out.empty()) out += separator;
    out += part;
  }
  return std::string(trim_ascii(out));
}

std::string finish_reason_of(const OutputReader& output, const std::string& status,
                             const std::string& incomplete_reason, bool has_text, bool leaked,
                             const std::string& issuer) {
  if (!output.tool_calls.empty()) return "tool_calls";
  if (status == "incomplete" && incomplete_reason == "content_filter") return "content_filter";
  if (leaked) return "incomplete";
  if (status == "incomplete" && incomplete_reason == "max_output_tokens") return "length";
  if (status == "queued" || status == "in_progress") return "incomplete";
  if ((output.incomplete_items || output.saw_commentary) && !output.saw_final_answer) {
    return "incomplete";
  }
  if ((output.saw_reasoning || !output.reasoning.empty()) && !has_text) {
    // Reasoning alone from the Codex, xAI or Copilot backends means the model is still
    // thinking; elsewhere a completed status is taken at its word.
    const bool special =
        issuer == "codex_backend" || issuer == "xai_responses" || issuer == "github_responses";
    return status == "completed" && !special ? "stop" : "incomplete";
  }
  return "stop";
}

ApiError invalid_response(std::string message, const Json& response) {
  ApiError error;
  error.error_code = "invalid_response";
  error.message = std::move(message);
  error.body = truncate_utf8(dump_json(response), kMaxErrorBodyBytes);
  return error;
}

}  // namespace

Usage read_responses_usage(const Json& usage) {
  Usage out;
  if (!usage.is_object()) return out;
  out.reported = true;
  out.input_tokens = count_member(usage, "input_tokens");
  out.output_tokens = count_member(usage, "output_tokens");
  const Json input_details = usage.value("input_tokens_details", Json());
  out.cache_read_tokens = count_member(input_details, "cached_tokens");
  out.cache_write_tokens = count_member(input_details, "cache_write_tokens");
  out.reasoning_tokens =
      count_member(usage.value("output_tokens_details", Json()), "reasoning_tokens");
  return out;
}

ApiError responses_error(const Json& error, const std::string& fallback_message) {
  Json object = error.is_object() && error.contains("error") && error["error"].is_object()
                    ? error["error"]
                    : error;
  // A flat stream event's own "type":"error" is not an error code.
  if (object.is_object()) {
    object.erase("type");
    object.erase("sequence_number");
  }
  const ErrorBody body = read_error_body(Json{{"error", object}});
  ApiError out;
  out.message = best_error_message(body, {});
  if (out.message.empty()) out.message = fallback_message;
  out.error_code = body.code;
  out.http_status = body.status.value_or(0);
  out.body = truncate_utf8(dump_json(Json{{"error", object}}), kMaxErrorBodyBytes);
  return out;
}

Result<ProviderResponse> read_responses_answer(const Json& response, const Json& streamed,
                                               const std::string& issuer) {
  if (!response.is_object()) {
    return Status::api_error(invalid_response("the response is not a JSON object", response));
  }
  const std::string status = lower_ascii(trim_ascii(string_member(response, "status")));
  if (status == "failed" || status == "cancelled") {
    return Status::api_error(responses_error(response.value("error", Json()),
                                             "the Responses API returned status '" + status + "'"));
  }
  const std::string incomplete_reason = lower_ascii(
      trim_ascii(string_member(response.value("incomplete_details", Json()), "reason")));
  const Json& listed = response.contains("output") ? response["output"] : Json();
  const Json& output = listed.is_array() && !listed.empty() ? listed : streamed;

  OutputReader reader(issuer);
  if (output.is_array()) {
    for (const Json& item : output) reader.read(item);
  }
  const bool empty = !output.is_array() || output.empty();
  if (empty && !(status == "incomplete" && incomplete_reason == "content_filter")) {
    return Status::api_error(
        invalid_response("the Responses API returned no output items", response));
  }
  std::string text = joined(reader.content, "\n");
  const bool leaked = reader.tool_calls.empty() && leaks_tool_call(text);
  if (leaked) text.clear();

  ProviderResponse answer;
  Message& message = answer.message;
  message.role = Role::kAssistant;
  message.finish_reason =
      finish_reason_of(reader, status, incomplete_reason, !text.empty(), leaked, issuer);
  message.content = std::move(text);
  message.reasoning = joined(reader.reasoning, "\n\n");
  message.tool_calls = std::move(reader.tool_calls);
  if (!reader.reasoning_items.empty())
    message.codex_reasoning_items = std::move(reader.reasoning_items);
  if (!reader.message_items.empty()) message.codex_message_items = std::move(reader.message_items);
  answer.usage = read_responses_usage(response.value("usage", Json()));
  answer.served_model = string_member(response, "model");
  answer.response_id = string_member(response, "id");
  return answer;
}

}  // namespace hermes::internal
