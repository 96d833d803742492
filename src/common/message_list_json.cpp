// The JSON forms of the transcript repairs. They take any JSON list an embedder may hold:
// messages of roles no provider accepts (a host's own bookkeeping rows) are dropped, tool
// results that name no call are dropped, and what cannot be read is an error naming the
// index and the field.
#include <string>

#include "common/utf8.hpp"
#include "hermes/message_utils.hpp"

namespace hermes {
namespace {

Status at_index(std::size_t i, const Status& s) {
  return Status::invalid_argument("messages[" + std::to_string(i) + "]." + s.message());
}

// Whether element `i` is a message a provider could take; false for a role hermes does not
// know (or no role at all) and for a tool result without the id that would pair it.
Result<bool> is_wire_message(const Json& m, std::size_t i) {
  if (!m.is_object()) {
    return Status::invalid_argument("messages[" + std::to_string(i) +
                                    "]: must be a JSON object, got " + std::string(m.type_name()));
  }
  const auto role = m.find("role");
  if (role == m.end() || !role->is_string()) return false;
  const auto parsed = parse_role(role->get_ref<const std::string&>());
  if (!parsed) return false;
  if (*parsed == Role::kTool) {
    const auto id = m.find("tool_call_id");
    if (id == m.end() || id->is_null() ||
        (id->is_string() && id->get_ref<const std::string&>().empty())) {
      return false;
    }
  }
  return true;
}

Result<std::vector<Message>> read_message_list(const Json& messages) {
  if (!messages.is_array()) {
    return Status::invalid_argument(std::string("messages: must be a JSON list, got ") +
                                    messages.type_name());
  }
  std::vector<Message> out;
  out.reserve(messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto keep = is_wire_message(messages[i], i);
    if (!keep.ok()) return keep.status();
    if (!*keep) continue;
    auto m = message_from_json(messages[i]);
    if (!m.ok()) return at_index(i, m.status());
    out.push_back(std::move(*m));
  }
  return out;
}

template <typename Fn>
Result<Json> on_list(const Json& messages, Fn&& fn) {
  auto parsed = read_message_list(messages);
  if (!parsed.ok()) return parsed.status();
  return messages_to_json(fn(std::move(*parsed)));
}

// Every string in `value`, keys included, with invalid UTF-8 and lone surrogates replaced.
Json sanitized_strings(const Json& value) {
  if (value.is_string()) return internal::sanitize_utf8(value.get_ref<const std::string&>());
  if (value.is_array()) {
    Json out = Json::array();
    for (const Json& item : value) out.push_back(sanitized_strings(item));
    return out;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      out[internal::sanitize_utf8(it.key())] = sanitized_strings(it.value());
    }
    return out;
  }
  return value;
}

}  // namespace

Result<Json> repair_message_sequence(const Json& messages) {
  return on_list(messages,
                 [](std::vector<Message> m) { return repair_message_sequence(std::move(m)); });
}

Result<bool> is_thinking_only_assistant(const Json& message) {
  if (!message.is_object()) {
    return Status::invalid_argument(std::string("message: must be a JSON object, got ") +
                                    message.type_name());
  }
  const auto role = message.find("role");
  if (role == message.end() || !role->is_string() || *role != "assistant") return false;
  auto parsed = message_from_json(message);
  if (!parsed.ok()) return parsed.status();
  return is_thinking_only_assistant(*parsed);
}

Result<Json> drop_thinking_only_and_merge_users(const Json& messages) {
  return on_list(messages, [](std::vector<Message> m) {
    return drop_thinking_only_and_merge_users(std::move(m));
  });
}

Result<Json> sanitize_api_messages(const Json& messages) {
  return on_list(messages,
                 [](std::vector<Message> m) { return sanitize_api_messages(std::move(m)); });
}

Result<Json> close_interrupted_tool_sequence(const Json& messages,
                                             std::string_view final_response) {
  if (!messages.is_array()) {
    return Status::invalid_argument(std::string("messages: must be a JSON list, got ") +
                                    messages.type_name());
  }
  Json out = messages;
  const Json* last = out.empty() ? nullptr : &out.back();
  const bool ends_on_tool =
      last && last->is_object() && last->contains("role") && (*last)["role"] == "tool";
  if (!ends_on_tool) return out;
  std::vector<Message> closing;
  closing.push_back(Message::tool("x", "", ""));
  close_interrupted_tool_sequence(closing, final_response);
  out.push_back(message_to_json(closing.back()));
  return out;
}

Result<Json> sanitize_messages_surrogates(const Json& messages) {
  if (!messages.is_array()) {
    return Status::invalid_argument(std::string("messages: must be a JSON list, got ") +
                                    messages.type_name());
  }
  return sanitized_strings(messages);
}

}  // namespace hermes
