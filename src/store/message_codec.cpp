#include "store/message_codec.hpp"

#include <algorithm>
#include <chrono>

#include "common/json_text.hpp"
#include "common/utf8.hpp"

namespace hermes::store {
namespace {

// Timestamps outside 2000-01-01 .. 2100-01-01 are clock or unit errors, not dates.
constexpr double kEarliestTimestamp = 946684800.0;
constexpr double kLatestTimestamp = 4102444800.0;

bool is_plausible_timestamp(double t) {
  return t >= kEarliestTimestamp && t <= kLatestTimestamp;
}

std::optional<std::string> text_or_null(std::string_view text) {
  if (text.empty()) return std::nullopt;
  return internal::sanitize_utf8(text);
}

std::optional<std::string> json_or_null(const Json& value) {
  if (value.is_null()) return std::nullopt;
  return internal::dump_json(value);
}

Json json_or_null(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  return internal::parse_json(*text).value_or(Json());
}

bool is_image_part(const Json& part) {
  if (!part.is_object()) return false;
  auto type = part.find("type");
  if (type == part.end() || !type->is_string()) return false;
  const auto& t = type->get_ref<const std::string&>();
  return t == "image" || t == "image_url" || t == "input_image";
}

// The parts as stored: images replaced by a text placeholder.
Json stored_parts(const Json& parts) {
  Json out = Json::array();
  for (const auto& part : parts) {
    if (is_image_part(part)) {
      out.push_back({{"type", "text"}, {"text", kImagePlaceholder}});
    } else {
      out.push_back(part);
    }
  }
  return out;
}

std::optional<std::string> encode_content(const Message& m) {
  if (m.parts.is_array()) {
    return std::string(kJsonContentPrefix) + internal::dump_json(stored_parts(m.parts));
  }
  if (m.content.empty()) return std::nullopt;
  return internal::sanitize_utf8(m.content);
}

// Parses a message through the JSON form, which owns the rules for parts and tool calls.
Result<Message> message_with(std::string_view key, const Json& value) {
  return message_from_json(Json{{"role", "assistant"}, {std::string(key), value}});
}

void decode_content(const std::optional<std::string>& stored, Message& m) {
  if (!stored) return;
  std::string_view text = *stored;
  if (text.substr(0, kJsonContentPrefix.size()) != kJsonContentPrefix) {
    m.content = *stored;
    return;
  }
  auto parsed = internal::parse_json(text.substr(kJsonContentPrefix.size()));
  if (!parsed) {
    m.content = *stored;  // Upstream's reader also hands back the raw text.
    return;
  }
  if (parsed->is_array()) {
    auto with_parts = message_with("content", *parsed);
    if (with_parts.ok()) {
      m.parts = std::move(with_parts->parts);
      m.content = std::move(with_parts->content);
      return;
    }
  }
  m.content = parsed->is_string() ? parsed->get<std::string>() : internal::dump_json(*parsed);
}

std::vector<ToolCall> decode_tool_calls(const std::optional<std::string>& stored) {
  if (!stored) return {};
  auto parsed = internal::parse_json(*stored);
  if (!parsed || !parsed->is_array()) return {};
  auto with_calls = message_with("tool_calls", *parsed);
  if (!with_calls.ok()) return {};
  return std::move(with_calls->tool_calls);
}

void encode_assistant_columns(const Message& m, MessageRow& row) {
  row.finish_reason = text_or_null(m.finish_reason);
  row.reasoning = text_or_null(m.reasoning);
  if (m.extra.is_object()) {
    auto rc = m.extra.find("reasoning_content");
    if (rc != m.extra.end() && rc->is_string()) {
      row.reasoning_content = internal::sanitize_utf8(rc->get_ref<const std::string&>());
    }
  }
  row.reasoning_details = json_or_null(m.reasoning_details);
  row.codex_reasoning_items = json_or_null(m.codex_reasoning_items);
  row.codex_message_items = json_or_null(m.codex_message_items);
}

void decode_assistant_columns(const MessageRow& row, Message& m) {
  m.finish_reason = row.finish_reason.value_or("");
  m.reasoning = row.reasoning.value_or("");
  // Same rule as the JSON form: reasoning_content is the reasoning when there is no other,
  // and is kept beside it when it differs.
  if (row.reasoning_content && !row.reasoning_content->empty()) {
    if (m.reasoning.empty()) {
      m.reasoning = *row.reasoning_content;
    } else if (*row.reasoning_content != m.reasoning) {
      m.extra = Json::object();
      m.extra["reasoning_content"] = *row.reasoning_content;
    }
  }
  m.reasoning_details = json_or_null(row.reasoning_details);
  m.codex_reasoning_items = json_or_null(row.codex_reasoning_items);
  m.codex_message_items = json_or_null(row.codex_message_items);
}

}  // namespace

Result<MessageRow> encode_message(const Message& m) {
  if (m.scaffolding) {
    return Status::invalid_argument(
        "a scaffolding message (a one-off recovery prompt) cannot be stored");
  }
  MessageRow row;
  row.role = std::string(role_name(m.role));
  row.content = encode_content(m);
  row.tool_call_id = text_or_null(m.tool_call_id);
  if (m.role == Role::kTool) row.tool_name = text_or_null(m.name);
  if (!m.tool_calls.empty()) {
    Message calls_only;
    calls_only.role = Role::kAssistant;
    calls_only.tool_calls = m.tool_calls;
    row.tool_calls = internal::dump_json(message_to_json(calls_only)["tool_calls"]);
    row.tool_call_count = static_cast<int64_t>(m.tool_calls.size());
  }
  if (m.role == Role::kAssistant) encode_assistant_columns(m, row);
  if (!m.api_content.empty() && m.api_content != m.content) {
    row.api_content = internal::sanitize_utf8(m.api_content);
  }
  row.display_kind = text_or_null(m.display_kind);
  row.timestamp = is_plausible_timestamp(m.timestamp) ? m.timestamp : 0;
  return row;
}

std::optional<Message> decode_message(const MessageRow& row) {
  auto role = parse_role(row.role);
  if (!role) return std::nullopt;
  Message m;
  m.role = *role;
  decode_content(row.content, m);
  m.tool_calls = decode_tool_calls(row.tool_calls);
  m.tool_call_id = row.tool_call_id.value_or("");
  if (m.role == Role::kTool) m.name = row.tool_name.value_or("");
  if (m.role == Role::kAssistant) decode_assistant_columns(row, m);
  m.api_content = row.api_content.value_or("");
  m.display_kind = row.display_kind.value_or("");
  m.timestamp = row.timestamp;
  return m;
}

void assign_timestamps(std::vector<MessageRow>& rows, double now) {
  double previous = 0;
  for (auto& row : rows) {
    if (row.timestamp == 0) row.timestamp = std::max(now, previous + 1e-6);
    previous = row.timestamp;
  }
}

double unix_now() {
  using namespace std::chrono;
  return duration_cast<duration<double>>(system_clock::now().time_since_epoch()).count();
}

}  // namespace hermes::store
