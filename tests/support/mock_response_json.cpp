// mock_response_from_json(): the response spec format of script files and the control
// API. A spec is either a raw response (status, headers, body or chunks) or a shorthand
// for a builder of mock_responses.hpp, and may add faults and routing to either:
//
//   {"status": 429, "headers": {"Retry-After": "2"}, "body": {"error": {...}}}
//   {"chunks": ["data: {...}\n\n", "data: [DONE]\n\n"], "drop_after_chunks": 1}
//   {"chat_text": "Hi", "stream": true, "usage": {"prompt_tokens": 3}, "finish_reason": "stop"}
//   {"chat_tool_calls": [{"id": "c1", "name": "f", "arguments": {"x": 1}}], "content": "..."}
//   {"chat_error": {"status": 400, "message": "...", "code": "...", "headers": {...}}}
//   {"responses_text": "Hi", "stream": true, "reasoning": {"summary": "...", "encrypted_content":
//   "..."}}
//   {"responses_tool_calls": [...], "content": "...", "usage": {...}}
//   {"responses_error": {"status": 429, "message": "...", "code": "...", "headers": {...}}}
//   {"anthropic_text": "Hi", "stream": true, "thinking": {"thinking": "...", "signature": "..."},
//    "stop_reason": "end_turn"}
//   {"anthropic_tool_calls": [...], "content": "...", "thinking": {...}}
//   {"anthropic_error": {"status": 529, "type": "overloaded_error", "message": "Overloaded"}}
//   {"sse_file": "tests/fixtures/....sse", "chunk_delay_ms": 5}
//
// Fault and routing keys: first_byte_delay_ms, chunk_delay_ms, stall_after_chunks with
// stall_ms, drop_after_chunks, close_before_headers with reset_connection, path_prefix
// (see MockResponse). "headers" and "status" also apply to a shorthand.
#include <algorithm>
#include <array>
#include <cctype>
#include <exception>
#include <limits>
#include <optional>
#include <string_view>

#include "common/json_text.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr std::array<std::string_view, 12> kRawKeys = {"status",
                                                       "headers",
                                                       "body",
                                                       "chunks",
                                                       "first_byte_delay_ms",
                                                       "chunk_delay_ms",
                                                       "stall_after_chunks",
                                                       "stall_ms",
                                                       "drop_after_chunks",
                                                       "close_before_headers",
                                                       "reset_connection",
                                                       "path_prefix"};
constexpr std::array<std::string_view, 10> kShorthands = {
    "chat_text",      "chat_tool_calls",      "chat_error",
    "responses_text", "responses_tool_calls", "responses_error",
    "anthropic_text", "anthropic_tool_calls", "anthropic_error",
    "sse_file"};

bool is_one_of(std::string_view key, std::initializer_list<std::string_view> keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

Status invalid(const std::string& message) {
  return Status::invalid_argument("mock response spec: " + message);
}

std::string in_quotes(std::string_view key) {
  return "\"" + std::string(key) + "\"";
}

// The keys a spec may hold: the raw ones, or with a shorthand ("" for none) the raw ones
// but the body, plus the shorthand and its options.
std::vector<std::string_view> allowed_keys(std::string_view shorthand) {
  std::vector<std::string_view> keys(kRawKeys.begin(), kRawKeys.end());
  if (shorthand.empty()) return keys;
  std::erase_if(keys, [](std::string_view key) { return key == "body" || key == "chunks"; });
  keys.push_back(shorthand);
  if (shorthand == "chat_text" || shorthand == "chat_tool_calls") {
    keys.insert(keys.end(), {"stream", "usage", "finish_reason"});
  }
  if (is_one_of(shorthand, {"responses_text", "responses_tool_calls"})) {
    keys.insert(keys.end(), {"stream", "usage", "reasoning"});
  }
  if (is_one_of(shorthand, {"anthropic_text", "anthropic_tool_calls"})) {
    keys.insert(keys.end(), {"stream", "usage", "thinking"});
  }
  if (shorthand == "anthropic_text") keys.push_back("stop_reason");
  if (is_one_of(shorthand, {"chat_tool_calls", "responses_tool_calls", "anthropic_tool_calls"})) {
    keys.push_back("content");
  }
  return keys;
}

Status check_keys(const Json& object, const std::vector<std::string_view>& allowed,
                  const std::string& where) {
  std::string unknown;
  for (const auto& item : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
    unknown += (unknown.empty() ? "" : ", ") + in_quotes(item.key());
  }
  if (unknown.empty()) return Status();
  return invalid("unknown key(s) " + unknown + where);
}

Result<std::int64_t> read_count(const Json& value, std::string_view key) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
    return invalid(in_quotes(key) + " must be a non-negative integer");
  }
  return value.get<std::int64_t>();
}

Result<std::string> read_string(const Json& value, std::string_view key) {
  if (!value.is_string()) return invalid(in_quotes(key) + " must be a string");
  return value.get<std::string>();
}

Result<bool> read_bool(const Json& value, std::string_view key) {
  if (!value.is_boolean()) return invalid(in_quotes(key) + " must be true or false");
  return value.get<bool>();
}

Result<int> read_status(const Json& value, std::string_view key) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 100 ||
      value.get<std::int64_t>() > 599) {
    return invalid(in_quotes(key) + " must be an HTTP status between 100 and 599");
  }
  return value.get<int>();
}

// Header values may be strings or numbers ({"Retry-After": 2}).
Result<Headers> read_headers(const Json& value, std::string_view key) {
  if (!value.is_object()) return invalid(in_quotes(key) + " must be an object");
  Headers headers;
  for (const auto& item : value.items()) {
    if (item.value().is_string()) {
      headers.emplace_back(item.key(), item.value().get<std::string>());
    } else if (item.value().is_number()) {
      headers.emplace_back(item.key(), internal::dump_json(item.value()));
    } else {
      return invalid(in_quotes(key) + ": the value of " + in_quotes(item.key()) +
                     " must be a string or a number");
    }
  }
  return headers;
}

bool same_header(const std::string& a, const std::string& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Later headers replace earlier ones of the same name.
void merge_headers(Headers& into, const Headers& extra) {
  for (const auto& header : extra) {
    std::erase_if(into, [&](const auto& old) { return same_header(old.first, header.first); });
    into.push_back(header);
  }
}

Result<MockUsage> read_usage(const Json& value) {
  if (!value.is_object()) return invalid("\"usage\" must be an object");
  HERMES_RETURN_IF_ERROR(
      check_keys(value, {"prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens"},
                 " in \"usage\""));
  MockUsage usage;
  std::pair<const char*, int*> fields[] = {{"prompt_tokens", &usage.prompt_tokens},
                                           {"completion_tokens", &usage.completion_tokens},
                                           {"cached_tokens", &usage.cached_tokens},
                                           {"reasoning_tokens", &usage.reasoning_tokens}};
  for (auto [name, field] : fields) {
    if (!value.contains(name)) continue;
    Result<std::int64_t> count = read_count(value[name], name);
    if (!count.ok()) return count.status();
    if (*count > std::numeric_limits<int>::max()) return invalid(in_quotes(name) + " is too large");
    *field = static_cast<int>(*count);
  }
  return usage;
}

// "arguments" may be JSON text (sent as is, even when broken on purpose) or a JSON value.
Result<MockToolCall> read_tool_call(const Json& value, std::string_view list, std::size_t index) {
  const std::string item = in_quotes(list) + "[" + std::to_string(index) + "]";
  const std::string where = " in " + item;
  if (!value.is_object()) return invalid(item + " must be an object");
  HERMES_RETURN_IF_ERROR(check_keys(value, {"id", "name", "arguments"}, where));
  MockToolCall call;
  if (!value.contains("name") || !value["name"].is_string()) {
    return invalid("\"name\" must be a string" + where);
  }
  call.name = value["name"].get<std::string>();
  if (value.contains("id")) {
    if (!value["id"].is_string()) return invalid("\"id\" must be a string" + where);
    call.id = value["id"].get<std::string>();
  }
  const Json arguments = value.value("arguments", Json::object());
  call.arguments =
      arguments.is_string() ? arguments.get<std::string>() : internal::dump_json(arguments);
  return call;
}

struct ChatOptions {
  bool stream = false;
  MockUsage usage;
  std::optional<std::string> finish_reason;
  std::string content;
};

Result<ChatOptions> read_chat_options(const Json& spec) {
  ChatOptions options;
  if (spec.contains("stream")) {
    Result<bool> stream = read_bool(spec["stream"], "stream");
    if (!stream.ok()) return stream.status();
    options.stream = *stream;
  }
  if (spec.contains("usage")) {
    Result<MockUsage> usage = read_usage(spec["usage"]);
    if (!usage.ok()) return usage.status();
    options.usage = *usage;
  }
  if (spec.contains("finish_reason")) {
    Result<std::string> reason = read_string(spec["finish_reason"], "finish_reason");
    if (!reason.ok()) return reason.status();
    options.finish_reason = *reason;
  }
  if (spec.contains("content")) {
    Result<std::string> content = read_string(spec["content"], "content");
    if (!content.ok()) return content.status();
    options.content = *content;
  }
  return options;
}

Result<MockResponse> read_chat_text(const Json& spec) {
  Result<std::string> text = read_string(spec["chat_text"], "chat_text");
  if (!text.ok()) return text.status();
  Result<ChatOptions> options = read_chat_options(spec);
  if (!options.ok()) return options.status();
  return chat::text(*text, options->stream, options->usage,
                    options->finish_reason.value_or("stop"));
}

Result<std::vector<MockToolCall>> read_tool_calls(const Json& spec, std::string_view key) {
  const Json& list = spec[std::string(key)];
  if (!list.is_array()) return invalid(in_quotes(key) + " must be a list");
  std::vector<MockToolCall> calls;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Result<MockToolCall> call = read_tool_call(list[i], key, i);
    if (!call.ok()) return call.status();
    calls.push_back(std::move(*call));
  }
  return calls;
}

Result<MockResponse> read_chat_tool_calls(const Json& spec) {
  Result<std::vector<MockToolCall>> calls = read_tool_calls(spec, "chat_tool_calls");
  if (!calls.ok()) return calls.status();
  Result<ChatOptions> options = read_chat_options(spec);
  if (!options.ok()) return options.status();
  return chat::tool_calls(*calls, options->stream, options->content, options->usage,
                          options->finish_reason.value_or("tool_calls"));
}

struct ErrorFields {
  int status = 500;
  std::string message;
  std::string code;  // "type" for Anthropic.
  Headers headers;
};

// {"status", "message", <code_key>, "headers"}, all optional.
Result<ErrorFields> read_error_fields(const Json& value, std::string_view key,
                                      std::string_view code_key) {
  if (!value.is_object()) return invalid(in_quotes(key) + " must be an object");
  HERMES_RETURN_IF_ERROR(
      check_keys(value, {"status", "message", code_key, "headers"}, " in " + in_quotes(key)));
  ErrorFields fields;
  if (value.contains("status")) {
    Result<int> read = read_status(value["status"], "status");
    if (!read.ok()) return read.status();
    fields.status = *read;
  }
  std::pair<std::string_view, std::string*> texts[] = {{"message", &fields.message},
                                                       {code_key, &fields.code}};
  for (auto [name, field] : texts) {
    if (!value.contains(std::string(name))) continue;
    Result<std::string> read = read_string(value[std::string(name)], name);
    if (!read.ok()) return read.status();
    *field = *read;
  }
  if (value.contains("headers")) {
    Result<Headers> read = read_headers(value["headers"], "headers");
    if (!read.ok()) return read.status();
    fields.headers = *read;
  }
  return fields;
}

Result<MockResponse> read_error(const Json& spec, std::string_view shorthand) {
  const bool anthropic = shorthand == "anthropic_error";
  Result<ErrorFields> fields =
      read_error_fields(spec[std::string(shorthand)], shorthand, anthropic ? "type" : "code");
  if (!fields.ok()) return fields.status();
  if (anthropic) {
    const std::string type = fields->code.empty() ? "api_error" : fields->code;
    return anthropic::error(fields->status, type, fields->message, fields->headers);
  }
  if (shorthand == "responses_error") {
    return responses::error(fields->status, fields->message, fields->code, fields->headers);
  }
  return chat::error(fields->status, fields->message, fields->code, fields->headers);
}

// {"summary": ..., "encrypted_content": ...} or {"thinking": ..., "signature": ...}.
Result<std::pair<std::string, std::string>> read_text_pair(const Json& value, std::string_view key,
                                                           std::string_view first,
                                                           std::string_view second) {
  if (!value.is_object()) return invalid(in_quotes(key) + " must be an object");
  HERMES_RETURN_IF_ERROR(check_keys(value, {first, second}, " in " + in_quotes(key)));
  std::pair<std::string, std::string> out;
  std::pair<std::string_view, std::string*> fields[] = {{first, &out.first}, {second, &out.second}};
  for (auto [name, field] : fields) {
    if (!value.contains(std::string(name))) continue;
    Result<std::string> read = read_string(value[std::string(name)], name);
    if (!read.ok()) return read.status();
    *field = *read;
  }
  return out;
}

Result<MockResponse> read_responses(const Json& spec, std::string_view shorthand) {
  Result<ChatOptions> options = read_chat_options(spec);
  if (!options.ok()) return options.status();
  std::optional<MockReasoning> reasoning;
  if (spec.contains("reasoning")) {
    auto pair = read_text_pair(spec["reasoning"], "reasoning", "summary", "encrypted_content");
    if (!pair.ok()) return pair.status();
    reasoning = MockReasoning{pair->first, pair->second};
  }
  if (shorthand == "responses_text") {
    Result<std::string> text = read_string(spec["responses_text"], "responses_text");
    if (!text.ok()) return text.status();
    return responses::text(*text, options->stream, options->usage, reasoning);
  }
  Result<std::vector<MockToolCall>> calls = read_tool_calls(spec, shorthand);
  if (!calls.ok()) return calls.status();
  return responses::tool_calls(*calls, options->stream, options->content, options->usage,
                               reasoning);
}

Result<MockResponse> read_anthropic(const Json& spec, std::string_view shorthand) {
  Result<ChatOptions> options = read_chat_options(spec);
  if (!options.ok()) return options.status();
  std::optional<MockThinking> thinking;
  if (spec.contains("thinking")) {
    auto pair = read_text_pair(spec["thinking"], "thinking", "thinking", "signature");
    if (!pair.ok()) return pair.status();
    thinking = MockThinking{pair->first, pair->second};
  }
  if (shorthand == "anthropic_text") {
    Result<std::string> text = read_string(spec["anthropic_text"], "anthropic_text");
    if (!text.ok()) return text.status();
    std::string stop_reason = "end_turn";
    if (spec.contains("stop_reason")) {
      Result<std::string> read = read_string(spec["stop_reason"], "stop_reason");
      if (!read.ok()) return read.status();
      stop_reason = *read;
    }
    return anthropic::text(*text, options->stream, options->usage, thinking, stop_reason);
  }
  Result<std::vector<MockToolCall>> calls = read_tool_calls(spec, shorthand);
  if (!calls.ok()) return calls.status();
  return anthropic::tool_calls(*calls, options->stream, options->content, options->usage, thinking);
}

Result<MockResponse> read_sse_file(const Json& value) {
  Result<std::string> path = read_string(value, "sse_file");
  if (!path.ok()) return path.status();
  try {
    return sse_fixture(*path);
  } catch (const std::exception& e) {
    return invalid("\"sse_file\": " + std::string(e.what()));
  }
}

Result<MockResponse> read_shorthand(const Json& spec, std::string_view shorthand) {
  if (shorthand == "chat_text") return read_chat_text(spec);
  if (shorthand == "chat_tool_calls") return read_chat_tool_calls(spec);
  if (shorthand.ends_with("_error")) return read_error(spec, shorthand);
  if (shorthand.starts_with("responses_")) return read_responses(spec, shorthand);
  if (shorthand.starts_with("anthropic_")) return read_anthropic(spec, shorthand);
  return read_sse_file(spec["sse_file"]);
}

Status read_body(const Json& spec, MockResponse& response) {
  if (spec.contains("body")) {
    const Json& body = spec["body"];
    response.body = body.is_string() ? body.get<std::string>() : internal::dump_json(body);
  }
  if (spec.contains("chunks")) {
    const Json& chunks = spec["chunks"];
    if (!chunks.is_array()) return invalid("\"chunks\" must be a list of strings");
    for (const Json& chunk : chunks) {
      if (!chunk.is_string()) return invalid("\"chunks\" must be a list of strings");
      response.chunks.push_back(chunk.get<std::string>());
    }
  }
  return Status();
}

// The keys every spec may carry: status, headers, faults and routing.
Status read_common(const Json& spec, MockResponse& response) {
  if (spec.contains("status")) {
    Result<int> status = read_status(spec["status"], "status");
    if (!status.ok()) return status.status();
    response.status = *status;
  }
  if (spec.contains("headers")) {
    Result<Headers> headers = read_headers(spec["headers"], "headers");
    if (!headers.ok()) return headers.status();
    merge_headers(response.headers, *headers);
  }
  std::pair<const char*, std::chrono::milliseconds*> delays[] = {
      {"first_byte_delay_ms", &response.first_byte_delay},
      {"chunk_delay_ms", &response.chunk_delay},
      {"stall_ms", &response.stall}};
  for (auto [key, delay] : delays) {
    if (!spec.contains(key)) continue;
    Result<std::int64_t> ms = read_count(spec[key], key);
    if (!ms.ok()) return ms.status();
    *delay = std::chrono::milliseconds(*ms);
  }
  std::pair<const char*, std::optional<std::size_t>*> counts[] = {
      {"drop_after_chunks", &response.drop_after_chunks},
      {"stall_after_chunks", &response.stall_after_chunks}};
  for (auto [key, count] : counts) {
    if (!spec.contains(key)) continue;
    Result<std::int64_t> read = read_count(spec[key], key);
    if (!read.ok()) return read.status();
    *count = static_cast<std::size_t>(*read);
  }
  std::pair<const char*, bool*> flags[] = {{"close_before_headers", &response.close_before_headers},
                                           {"reset_connection", &response.reset_connection}};
  for (auto [key, flag] : flags) {
    if (!spec.contains(key)) continue;
    Result<bool> read = read_bool(spec[key], key);
    if (!read.ok()) return read.status();
    *flag = *read;
  }
  if (spec.contains("path_prefix")) {
    Result<std::string> prefix = read_string(spec["path_prefix"], "path_prefix");
    if (!prefix.ok()) return prefix.status();
    response.path_prefix = *prefix;
  }
  return Status();
}

// The shorthand the spec uses, "" for a raw response.
Result<std::string_view> find_shorthand(const Json& spec) {
  std::string_view found;
  for (std::string_view shorthand : kShorthands) {
    if (!spec.contains(std::string(shorthand))) continue;
    if (!found.empty()) {
      return invalid(in_quotes(found) + " and " + in_quotes(shorthand) + " exclude each other");
    }
    found = shorthand;
  }
  return found;
}

}  // namespace

Result<MockResponse> mock_response_from_json(const Json& spec) {
  if (!spec.is_object()) return invalid("a response spec must be a JSON object");
  Result<std::string_view> shorthand = find_shorthand(spec);
  if (!shorthand.ok()) return shorthand.status();
  HERMES_RETURN_IF_ERROR(check_keys(spec, allowed_keys(*shorthand), ""));

  MockResponse response;
  if (shorthand->empty()) {
    HERMES_RETURN_IF_ERROR(read_body(spec, response));
  } else {
    Result<MockResponse> built = read_shorthand(spec, *shorthand);
    if (!built.ok()) return built.status();
    response = std::move(built).value();
  }
  HERMES_RETURN_IF_ERROR(read_common(spec, response));
  return response;
}

}  // namespace hermes::testing
