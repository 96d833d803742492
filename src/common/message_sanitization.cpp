// The transcript repairs of hermes/message_utils.hpp.
#include <algorithm>
#include <set>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "common/utf8.hpp"
#include "hermes/message_utils.hpp"

namespace hermes {
namespace {

bool mergeable_user(const Message& m) {
  return m.role == Role::kUser && m.parts.is_null() && !m.scaffolding;
}

void merge_user_into(Message& into, const Message& from) {
  into.content += "\n\n" + from.content;
  if (!into.api_content.empty() || !from.api_content.empty()) {
    into.api_content = into.wire_text() + "\n\n" + from.wire_text();
  }
}

std::vector<Message> merge_adjacent_users(std::vector<Message> messages) {
  std::vector<Message> out;
  out.reserve(messages.size());
  for (auto& m : messages) {
    if (!out.empty() && mergeable_user(out.back()) && mergeable_user(m)) {
      merge_user_into(out.back(), m);
    } else {
      out.push_back(std::move(m));
    }
  }
  return out;
}

std::string canonical_arguments(const std::string& arguments) {
  if (internal::is_blank(arguments)) return "{}";
  auto parsed = internal::parse_json(arguments);
  if (!parsed) return "{}";
  return internal::dump_json(*parsed);
}

// Drops orphan tool results and appends a stub for every call left unanswered, keeping
// each assistant's results directly after it.
std::vector<Message> pair_tool_results(std::vector<Message> messages) {
  std::vector<Message> out;
  out.reserve(messages.size());
  std::vector<const ToolCall*> open;  // Calls of the last assistant still unanswered.
  auto close_group = [&] {
    for (const ToolCall* call : open) {
      out.push_back(Message::tool(call->id, call->name, std::string(kMissingToolResultStub)));
    }
    open.clear();
  };
  // `open` points into `messages`, which is not modified while the walk runs.
  for (std::size_t i = 0; i < messages.size(); ++i) {
    Message& m = messages[i];
    if (m.role == Role::kTool) {
      auto it = std::find_if(open.begin(), open.end(),
                             [&](const ToolCall* c) { return c->id == m.tool_call_id; });
      if (it == open.end()) continue;  // Orphan or duplicate result.
      open.erase(it);
      out.push_back(std::move(m));
      continue;
    }
    close_group();
    if (m.role == Role::kAssistant) {
      for (const auto& call : m.tool_calls) open.push_back(&call);
    }
    out.push_back(m);  // Copy: `open` may point into this message's calls.
  }
  close_group();
  return out;
}

template <typename Fn>
Result<Json> on_json(const Json& messages, Fn&& fn) {
  auto parsed = messages_from_json(messages);
  if (!parsed.ok()) return parsed.status();
  return messages_to_json(fn(std::move(*parsed)));
}

}  // namespace

std::vector<Message> repair_message_sequence(std::vector<Message> messages) {
  std::vector<Message> out;
  out.reserve(messages.size());
  std::set<std::string> known;
  for (auto& m : messages) {
    switch (m.role) {
      case Role::kAssistant:
        known.clear();
        for (const auto& call : m.tool_calls) known.insert(call.id);
        break;
      case Role::kUser:
        known.clear();
        break;
      case Role::kTool:
        if (known.erase(m.tool_call_id) == 0) continue;
        break;
      case Role::kSystem:
        break;
    }
    out.push_back(std::move(m));
  }
  return merge_adjacent_users(std::move(out));
}

bool is_thinking_only_assistant(const Message& m) {
  if (m.role != Role::kAssistant || !m.tool_calls.empty()) return false;
  if (!internal::strip_think_blocks(m.content).empty()) return false;
  const bool had_think_content = !internal::is_blank(m.content);
  return had_think_content || !m.reasoning.empty() || !m.reasoning_details.is_null();
}

std::vector<Message> drop_thinking_only_and_merge_users(std::vector<Message> messages) {
  auto droppable = [](const Message& m) { return !m.scaffolding && is_thinking_only_assistant(m); };
  if (std::none_of(messages.begin(), messages.end(), droppable)) return messages;
  messages.erase(std::remove_if(messages.begin(), messages.end(), droppable), messages.end());
  return merge_adjacent_users(std::move(messages));
}

std::vector<Message> sanitize_api_messages(std::vector<Message> messages) {
  for (auto& m : messages) {
    if (!m.api_content.empty()) {
      m.content = std::move(m.api_content);
      m.api_content.clear();
    }
    // Only a thinking prefill keeps its flag, until it has been spared below.
    m.scaffolding = m.scaffolding && is_thinking_only_assistant(m);
    if (m.extra.is_object()) {
      for (auto it = m.extra.begin(); it != m.extra.end();) {
        it = it.key().rfind('_', 0) == 0 ? m.extra.erase(it) : std::next(it);
      }
      if (m.extra.empty()) m.extra = nullptr;
    }
    m.content = internal::sanitize_utf8(internal::strip(m.content));
    m.reasoning = internal::sanitize_utf8(m.reasoning);
    for (auto& call : m.tool_calls) {
      call.arguments = canonical_arguments(internal::sanitize_utf8(call.arguments));
      call.name = internal::sanitize_utf8(call.name);
    }
  }
  messages = pair_tool_results(std::move(messages));
  messages = drop_thinking_only_and_merge_users(std::move(messages));
  for (auto& m : messages) m.scaffolding = false;
  return messages;
}

std::string sanitize_surrogates(std::string_view text) {
  return internal::sanitize_utf8(text);
}

Result<Json> repair_message_sequence(const Json& messages) {
  return on_json(messages,
                 [](std::vector<Message> m) { return repair_message_sequence(std::move(m)); });
}

Result<bool> is_thinking_only_assistant(const Json& message) {
  auto parsed = message_from_json(message);
  if (!parsed.ok()) return parsed.status();
  return is_thinking_only_assistant(*parsed);
}

Result<Json> drop_thinking_only_and_merge_users(const Json& messages) {
  return on_json(messages, [](std::vector<Message> m) {
    return drop_thinking_only_and_merge_users(std::move(m));
  });
}

Result<Json> sanitize_api_messages(const Json& messages) {
  return on_json(messages,
                 [](std::vector<Message> m) { return sanitize_api_messages(std::move(m)); });
}

}  // namespace hermes
