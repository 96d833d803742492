#include "hermes/message.hpp"

#include <array>

#include "common/json_text.hpp"

namespace hermes {
namespace {

constexpr std::array<std::string_view, 16> kKnownKeys = {
    "role", "content", "tool_calls", "tool_call_id", "name", "reasoning",
    "reasoning_content", "reasoning_details", "codex_reasoning_items", "codex_message_items",
    "anthropic_content_blocks", "finish_reason", "api_content", "timestamp", "display_kind",
    "_scaffolding"};

bool is_known_key(std::string_view key) {
  for (auto k : kKnownKeys) {
    if (k == key) return true;
  }
  return false;
}

Status field_error(std::string_view key, std::string_view what) {
  return Status::invalid_argument(std::string(key) + ": " + std::string(what));
}

// Reads an optional string field; null counts as absent.
Status read_string(const Json& json, std::string_view key, std::string& out) {
  auto it = json.find(key);
  if (it == json.end() || it->is_null()) return {};
  if (!it->is_string()) return field_error(key, "must be a string");
  out = it->get<std::string>();
  return {};
}

Result<ToolCall> tool_call_from_json(const Json& json, std::size_t index) {
  const std::string where = "tool_calls[" + std::to_string(index) + "]";
  if (!json.is_object()) return field_error(where, "must be an object");
  ToolCall call;
  if (auto it = json.find("id"); it != json.end() && !it->is_null()) {
    // Some servers send numeric ids.
    call.id = it->is_string() ? it->get<std::string>() : internal::dump_json(*it);
  }
  auto fn = json.find("function");
  if (fn == json.end() || !fn->is_object()) return field_error(where + ".function", "must be an object");
  if (auto name = fn->find("name"); name != fn->end() && name->is_string()) {
    call.name = name->get<std::string>();
  }
  if (auto args = fn->find("arguments"); args != fn->end() && !args->is_null()) {
    call.arguments = args->is_string() ? args->get<std::string>() : internal::dump_json(*args);
  }
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (it.key() == "id" || it.key() == "type" || it.key() == "function") continue;
    if (call.extra.is_null()) call.extra = Json::object();
    call.extra[it.key()] = it.value();
  }
  return call;
}

Json tool_call_to_json(const ToolCall& call) {
  Json out = Json::object();
  if (call.extra.is_object()) out = call.extra;
  out["id"] = call.id;
  out["type"] = "function";
  out["function"] = {{"name", call.name}, {"arguments", call.arguments}};
  return out;
}

std::string joined_text_parts(const Json& parts) {
  std::string text;
  for (const auto& part : parts) {
    if (!part.is_object()) continue;
    auto t = part.find("text");
    if (t == part.end() || !t->is_string()) continue;
    if (!text.empty()) text += "\n";
    text += t->get_ref<const std::string&>();
  }
  return text;
}

}  // namespace

std::string_view role_name(Role role) {
  switch (role) {
    case Role::kSystem: return "system";
    case Role::kUser: return "user";
    case Role::kAssistant: return "assistant";
    case Role::kTool: return "tool";
  }
  return "user";
}

std::optional<Role> parse_role(std::string_view name) {
  if (name == "system" || name == "developer") return Role::kSystem;
  if (name == "user") return Role::kUser;
  if (name == "assistant") return Role::kAssistant;
  if (name == "tool") return Role::kTool;
  return std::nullopt;
}

bool ToolCall::operator==(const ToolCall& other) const {
  return id == other.id && name == other.name && arguments == other.arguments &&
         extra == other.extra;
}

Usage& Usage::operator+=(const Usage& other) {
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cache_read_tokens += other.cache_read_tokens;
  cache_write_tokens += other.cache_write_tokens;
  reasoning_tokens += other.reasoning_tokens;
  reported = reported || other.reported;
  return *this;
}

bool Usage::operator==(const Usage& other) const {
  return input_tokens == other.input_tokens && output_tokens == other.output_tokens &&
         cache_read_tokens == other.cache_read_tokens &&
         cache_write_tokens == other.cache_write_tokens &&
         reasoning_tokens == other.reasoning_tokens && reported == other.reported;
}

bool Message::operator==(const Message& other) const {
  return role == other.role && content == other.content && parts == other.parts &&
         tool_calls == other.tool_calls && tool_call_id == other.tool_call_id &&
         name == other.name && reasoning == other.reasoning &&
         reasoning_details == other.reasoning_details &&
         anthropic_content_blocks == other.anthropic_content_blocks &&
         codex_reasoning_items == other.codex_reasoning_items &&
         codex_message_items == other.codex_message_items &&
         finish_reason == other.finish_reason && api_content == other.api_content &&
         timestamp == other.timestamp && display_kind == other.display_kind &&
         scaffolding == other.scaffolding && extra == other.extra;
}

Message Message::system(std::string text) {
  Message m;
  m.role = Role::kSystem;
  m.content = std::move(text);
  return m;
}

Message Message::user(std::string text) {
  Message m;
  m.role = Role::kUser;
  m.content = std::move(text);
  return m;
}

Message Message::assistant(std::string text) {
  Message m;
  m.role = Role::kAssistant;
  m.content = std::move(text);
  return m;
}

Message Message::tool(std::string tool_call_id, std::string name, std::string result) {
  Message m;
  m.role = Role::kTool;
  m.tool_call_id = std::move(tool_call_id);
  m.name = std::move(name);
  m.content = std::move(result);
  return m;
}

Json message_to_json(const Message& m) {
  Json out = m.extra.is_object() ? m.extra : Json::object();
  out["role"] = role_name(m.role);
  if (!m.parts.is_null()) {
    out["content"] = m.parts;
  } else if (m.role == Role::kAssistant && m.content.empty() && !m.tool_calls.empty()) {
    out["content"] = nullptr;
  } else {
    out["content"] = m.content;
  }
  if (!m.tool_calls.empty()) {
    Json calls = Json::array();
    for (const auto& call : m.tool_calls) calls.push_back(tool_call_to_json(call));
    out["tool_calls"] = std::move(calls);
  }
  if (!m.tool_call_id.empty()) out["tool_call_id"] = m.tool_call_id;
  if (!m.name.empty()) out["name"] = m.name;
  if (!m.reasoning.empty()) out["reasoning"] = m.reasoning;
  if (!m.reasoning_details.is_null()) out["reasoning_details"] = m.reasoning_details;
  if (!m.anthropic_content_blocks.is_null()) out["anthropic_content_blocks"] = m.anthropic_content_blocks;
  if (!m.codex_reasoning_items.is_null()) out["codex_reasoning_items"] = m.codex_reasoning_items;
  if (!m.codex_message_items.is_null()) out["codex_message_items"] = m.codex_message_items;
  if (!m.finish_reason.empty()) out["finish_reason"] = m.finish_reason;
  if (!m.api_content.empty()) out["api_content"] = m.api_content;
  if (m.timestamp != 0) out["timestamp"] = m.timestamp;
  if (!m.display_kind.empty()) out["display_kind"] = m.display_kind;
  if (m.scaffolding) out["_scaffolding"] = true;
  return out;
}

Result<Message> message_from_json(const Json& json) {
  if (!json.is_object()) return Status::invalid_argument("message must be a JSON object");
  Message m;
  auto role = json.find("role");
  if (role == json.end() || !role->is_string()) return field_error("role", "missing or not a string");
  auto parsed = parse_role(role->get_ref<const std::string&>());
  if (!parsed) {
    return field_error("role", "unknown role '" + role->get<std::string>() +
                                   "' (expected system, user, assistant or tool)");
  }
  m.role = *parsed;

  if (auto c = json.find("content"); c != json.end() && !c->is_null()) {
    if (c->is_string()) {
      m.content = c->get<std::string>();
    } else if (c->is_array()) {
      m.parts = *c;
      m.content = joined_text_parts(*c);
    } else {
      return field_error("content", "must be a string, a list of parts or null");
    }
  }

  if (auto calls = json.find("tool_calls"); calls != json.end() && !calls->is_null()) {
    if (!calls->is_array()) return field_error("tool_calls", "must be a list");
    for (std::size_t i = 0; i < calls->size(); ++i) {
      auto call = tool_call_from_json((*calls)[i], i);
      if (!call.ok()) return call.status();
      m.tool_calls.push_back(std::move(*call));
    }
  }

  HERMES_RETURN_IF_ERROR(read_string(json, "tool_call_id", m.tool_call_id));
  if (m.role == Role::kTool && m.tool_call_id.empty()) {
    return field_error("tool_call_id", "is required for a tool message");
  }
  HERMES_RETURN_IF_ERROR(read_string(json, "name", m.name));
  HERMES_RETURN_IF_ERROR(read_string(json, "reasoning", m.reasoning));
  std::string reasoning_content;
  HERMES_RETURN_IF_ERROR(read_string(json, "reasoning_content", reasoning_content));
  HERMES_RETURN_IF_ERROR(read_string(json, "finish_reason", m.finish_reason));
  HERMES_RETURN_IF_ERROR(read_string(json, "api_content", m.api_content));
  HERMES_RETURN_IF_ERROR(read_string(json, "display_kind", m.display_kind));

  if (auto v = json.find("reasoning_details"); v != json.end()) m.reasoning_details = *v;
  if (auto v = json.find("anthropic_content_blocks"); v != json.end()) m.anthropic_content_blocks = *v;
  if (auto v = json.find("codex_reasoning_items"); v != json.end()) m.codex_reasoning_items = *v;
  if (auto v = json.find("codex_message_items"); v != json.end()) m.codex_message_items = *v;
  if (auto v = json.find("timestamp"); v != json.end() && !v->is_null()) {
    if (!v->is_number()) return field_error("timestamp", "must be a number");
    m.timestamp = v->get<double>();
  }
  if (auto v = json.find("_scaffolding"); v != json.end()) m.scaffolding = v->is_boolean() && v->get<bool>();

  for (auto it = json.begin(); it != json.end(); ++it) {
    if (is_known_key(it.key())) continue;
    if (m.extra.is_null()) m.extra = Json::object();
    m.extra[it.key()] = it.value();
  }
  // reasoning_content is the replay field of some providers; keep it losslessly when it
  // differs from the reasoning text hermes uses.
  if (!reasoning_content.empty()) {
    if (m.reasoning.empty()) {
      m.reasoning = reasoning_content;
    } else if (reasoning_content != m.reasoning) {
      if (m.extra.is_null()) m.extra = Json::object();
      m.extra["reasoning_content"] = reasoning_content;
    }
  }
  return m;
}

Json messages_to_json(const std::vector<Message>& messages) {
  Json out = Json::array();
  for (const auto& m : messages) out.push_back(message_to_json(m));
  return out;
}

Result<std::vector<Message>> messages_from_json(const Json& json) {
  if (!json.is_array()) return Status::invalid_argument("messages must be a JSON list");
  std::vector<Message> out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    auto m = message_from_json(json[i]);
    if (!m.ok()) {
      return Status::invalid_argument("messages[" + std::to_string(i) + "]." + m.status().message());
    }
    out.push_back(std::move(*m));
  }
  return out;
}

Json usage_to_json(const Usage& u) {
  return Json{{"input_tokens", u.input_tokens},
              {"output_tokens", u.output_tokens},
              {"cache_read_tokens", u.cache_read_tokens},
              {"cache_write_tokens", u.cache_write_tokens},
              {"reasoning_tokens", u.reasoning_tokens},
              {"total_tokens", u.total_tokens()}};
}

}  // namespace hermes
