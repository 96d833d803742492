#include "context/compaction_assembly.hpp"

#include <unordered_set>

#include "common/text_utils.hpp"
#include "context/message_parts.hpp"
#include "context/summary_markers.hpp"

namespace hermes::internal {
namespace {

Role other_turn_role(Role role) {
  return role == Role::kUser ? Role::kAssistant : Role::kUser;
}

void mark_summary(Message& m) {
  if (!m.extra.is_object()) m.extra = Json::object();
  m.extra[std::string(kSummaryMetadataKey)] = true;
}

void add_system_note(std::vector<Message>& head) {
  if (head.empty() || head.front().role != Role::kSystem) return;
  Message& system = head.front();
  if (system.content.find(kCompactionSystemNote) != std::string::npos) return;
  append_text(system, system.content.empty() ? std::string(kCompactionSystemNote)
                                             : "\n\n" + std::string(kCompactionSystemNote));
}

// Merges the summary into the first tail message.
void merge_into(Message& first, const std::string& summary, bool summary_leads) {
  if (summary_leads) {
    // The summary must open the conversation, and the live request must still come after
    // the summary's end.
    prepend_text(first, summary + "\n\n" + std::string(kContextSummaryEndMarker) + "\n\n");
  } else {
    // The message's own content stays first, marked as reference, so it is not read as a
    // new message to answer.
    append_text(first, "\n\n" + std::string(kMergedSummaryDelimiter) + "\n\n" + summary + "\n\n" +
                           std::string(kContextSummaryEndMarker));
    prepend_text(first, std::string(kMergedPriorContextHeader) + "\n");
  }
  first.api_content.clear();  // The exact bytes sent before no longer match the content.
  mark_summary(first);
}

bool any_user(const std::vector<Message>& messages) {
  for (const auto& m : messages) {
    if (m.role == Role::kUser) return true;
  }
  return false;
}

Message stub_result(const ToolCall& call) {
  return Message::tool(call.id, call.name, std::string(kSummarizedResultStub));
}

}  // namespace

Assembly assemble_compacted(AssemblyParts parts) {
  Assembly out;
  add_system_note(parts.head);
  const Role last_head = parts.head.empty() ? Role::kUser : parts.head.back().role;
  // Anthropic and Bedrock send the system prompt apart and reject a conversation that
  // opens with an assistant turn; some gateways reject one without any user turn.
  const bool user_leads = parts.head.empty() || last_head == Role::kSystem ||
                          (!any_user(parts.head) && !any_user(parts.tail));
  Role role = (last_head == Role::kAssistant || last_head == Role::kTool || user_leads)
                  ? Role::kUser
                  : Role::kAssistant;
  bool merge = false;
  if (!parts.tail.empty() && parts.tail.front().role == role) {
    const Role flipped = other_turn_role(role);
    if (flipped != last_head && !user_leads) {
      role = flipped;
    } else {
      merge = true;
    }
  }
  out.summary_role = role;
  out.merged_into_tail = merge;
  out.messages = std::move(parts.head);
  if (merge) {
    merge_into(parts.tail.front(), parts.summary, user_leads && role == Role::kUser);
  } else {
    Message summary;
    summary.role = role;
    summary.content = parts.summary + "\n\n" + std::string(kContextSummaryEndMarker);
    mark_summary(summary);
    out.messages.push_back(std::move(summary));
  }
  for (auto& m : parts.tail) out.messages.push_back(std::move(m));
  return out;
}

std::vector<Message> sanitize_tool_pairs(std::vector<Message> messages,
                                         MissingResultRepair repair) {
  std::vector<Message> out;
  out.reserve(messages.size());
  for (std::size_t i = 0; i < messages.size();) {
    Message m = std::move(messages[i]);
    if (m.role == Role::kTool) {  // A result with no call right before it: an orphan.
      ++i;
      continue;
    }
    if (m.role != Role::kAssistant || m.tool_calls.empty()) {
      out.push_back(std::move(m));
      ++i;
      continue;
    }
    std::unordered_set<std::string> open;
    for (const auto& call : m.tool_calls) {
      if (!call.id.empty()) open.insert(call.id);
    }
    std::vector<Message> results;
    for (++i; i < messages.size() && messages[i].role == Role::kTool; ++i) {
      if (open.erase(messages[i].tool_call_id) > 0) results.push_back(std::move(messages[i]));
    }
    std::vector<ToolCall> kept;
    for (auto& call : m.tool_calls) {
      const bool answered = !call.id.empty() && open.count(call.id) == 0;
      if (answered) {
        kept.push_back(std::move(call));
      } else if (repair == MissingResultRepair::kStubResult && !call.id.empty()) {
        results.push_back(stub_result(call));
        kept.push_back(std::move(call));
      }
    }
    m.tool_calls = std::move(kept);
    if (m.tool_calls.empty() && is_blank(m.content) && !m.parts.is_array()) {
      m.content = std::string(kToolCallRemovedContent);
    }
    out.push_back(std::move(m));
    for (auto& r : results) out.push_back(std::move(r));
  }
  return out;
}

std::vector<Message> strip_historical_media(std::vector<Message> messages) {
  std::size_t anchor = 0;
  for (std::size_t i = messages.size(); i-- > 0;) {
    if (messages[i].role == Role::kUser && has_image_parts(messages[i])) {
      anchor = i;
      break;
    }
  }
  for (std::size_t i = 0; i < anchor; ++i) {
    if (replace_image_parts(messages[i], kImageStripped)) messages[i].api_content.clear();
  }
  return messages;
}

}  // namespace hermes::internal
