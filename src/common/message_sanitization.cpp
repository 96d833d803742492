// The transcript repairs of hermes/message_utils.hpp, on Message lists. The JSON forms,
// which also accept lists no Message could hold, are in message_list_json.cpp.
#include <algorithm>
#include <set>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "common/utf8.hpp"
#include "hermes/message_utils.hpp"

namespace hermes {
namespace {

// A user message with nothing to say: blank text and no part other than blank text.
bool is_empty_user(const Message& m) {
  if (m.role != Role::kUser) return false;
  if (!m.parts.is_array()) return internal::is_blank(m.wire_text());
  if (!m.api_content.empty()) return internal::is_blank(m.api_content);
  for (const Json& part : m.parts) {
    if (!part.is_object()) continue;
    const auto type = part.find("type");
    const auto text = part.find("text");
    const bool text_part = type == part.end() || (type->is_string() && *type == "text");
    if (!text_part) return false;  // An image or a document says something.
    if (text != part.end() && text->is_string() &&
        !internal::is_blank(text->get_ref<const std::string&>())) {
      return false;
    }
  }
  return true;
}

// A recovery prompt the loop removes after the call must stay a message of its own.
bool mergeable_user(const Message& m) {
  return m.role == Role::kUser && !m.scaffolding;
}

// The content as a list of parts: its own parts, or its text as one text part.
Json parts_of_user(const Message& m) {
  if (m.parts.is_array()) return m.parts;
  Json parts = Json::array();
  if (!m.wire_text().empty()) parts.push_back(Json{{"type", "text"}, {"text", m.wire_text()}});
  return parts;
}

std::string text_of_parts(const Json& parts) {
  std::string text;
  for (const Json& part : parts) {
    if (!part.is_object()) continue;
    const auto t = part.find("text");
    if (t == part.end() || !t->is_string()) continue;
    if (!text.empty()) text += "\n";
    text += t->get_ref<const std::string&>();
  }
  return text;
}

// Two texts join with a blank line; when either side has parts, the parts follow each
// other, the text side becoming a text part.
void merge_user_into(Message& into, const Message& from) {
  if (!into.parts.is_array() && !from.parts.is_array()) {
    const std::string wire = into.wire_text().empty() || from.wire_text().empty()
                                 ? into.wire_text() + from.wire_text()
                                 : into.wire_text() + "\n\n" + from.wire_text();
    const std::string text = into.content.empty() || from.content.empty()
                                 ? into.content + from.content
                                 : into.content + "\n\n" + from.content;
    const bool sidecar = !into.api_content.empty() || !from.api_content.empty();
    into.content = text;
    into.api_content = sidecar ? wire : std::string();
    return;
  }
  Json parts = parts_of_user(into);
  for (const Json& part : parts_of_user(from)) parts.push_back(part);
  into.parts = std::move(parts);
  into.content = text_of_parts(into.parts);
  into.api_content.clear();  // The wire text is now inside the parts.
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

std::vector<Message> without_empty_users(std::vector<Message> messages) {
  messages.erase(std::remove_if(messages.begin(), messages.end(), is_empty_user), messages.end());
  return messages;
}

// Arguments a provider will parse: repaired, then re-serialised compactly.
std::string canonical_arguments(const std::string& arguments) {
  auto parsed = internal::parse_json(repair_tool_call_arguments(arguments));
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

// Keys that are hermes's own record of a message, never part of what a provider reads.
void strip_bookkeeping(Message& m) {
  m.timestamp = 0;
  m.display_kind.clear();
  m.finish_reason.clear();
  if (!m.extra.is_object()) return;
  for (auto it = m.extra.begin(); it != m.extra.end();) {
    const bool internal_key = it.key().rfind('_', 0) == 0 || it.key() == "display_metadata";
    it = internal_key ? m.extra.erase(it) : std::next(it);
  }
  if (m.extra.empty()) m.extra = nullptr;
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
  return merge_adjacent_users(without_empty_users(std::move(out)));
}

bool is_thinking_only_assistant(const Message& m) {
  if (m.role != Role::kAssistant || !m.tool_calls.empty()) return false;
  if (!internal::strip_think_blocks(m.content).empty()) return false;
  const bool had_think_content = !internal::is_blank(m.content);
  return had_think_content || !m.reasoning.empty() || !m.reasoning_details.is_null();
}

std::vector<Message> drop_thinking_only_and_merge_users(std::vector<Message> messages) {
  auto droppable = [](const Message& m) {
    return (!m.scaffolding && is_thinking_only_assistant(m)) || is_empty_user(m);
  };
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
    strip_bookkeeping(m);
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

bool close_interrupted_tool_sequence(std::vector<Message>& messages,
                                     std::string_view final_response) {
  if (messages.empty() || messages.back().role != Role::kTool) return false;
  const std::string text = internal::strip(final_response);
  messages.push_back(Message::assistant(text.empty() ? std::string(kInterruptedTurnText) : text));
  return true;
}

std::string sanitize_surrogates(std::string_view text) {
  return internal::sanitize_utf8(text);
}

}  // namespace hermes
