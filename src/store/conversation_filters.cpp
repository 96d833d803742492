#include "store/conversation_filters.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace hermes::store {
namespace {

constexpr std::array<std::string_view, 2> kReviewPromptPrefixes = {
    "Review the conversation above and update the skill library",
    "Review the conversation above and consider saving to memory",
};

bool is_review_prompt(const Message& m) {
  if (m.role != Role::kUser) return false;
  return std::any_of(kReviewPromptPrefixes.begin(), kReviewPromptPrefixes.end(),
                     [&](std::string_view prefix) { return m.content.rfind(prefix, 0) == 0; });
}

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == ':';
}

// "[terminal]": what some providers put in the text of a message that only calls a tool.
bool is_bare_marker(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.remove_suffix(1);
  if (text.size() < 3 || text.front() != '[' || text.back() != ']') return false;
  const std::string_view name = text.substr(1, text.size() - 2);
  return std::all_of(name.begin(), name.end(), is_identifier_char);
}

}  // namespace

void apply_resume_filters(std::vector<Message>& conversation) {
  std::vector<Message> kept;
  kept.reserve(conversation.size());
  std::set<std::string> dropped_calls;
  for (std::size_t i = 0; i < conversation.size(); ++i) {
    Message& m = conversation[i];
    if (is_review_prompt(m)) {
      if (i + 1 < conversation.size() && conversation[i + 1].role == Role::kAssistant) {
        for (const auto& call : conversation[i + 1].tool_calls) dropped_calls.insert(call.id);
        ++i;
      }
      continue;
    }
    if (m.role == Role::kTool && dropped_calls.count(m.tool_call_id) != 0) continue;
    if (m.role == Role::kAssistant && !m.tool_calls.empty() && m.parts.is_null() &&
        is_bare_marker(m.content)) {
      m.content.clear();
    }
    kept.push_back(std::move(m));
  }
  conversation = std::move(kept);
}

}  // namespace hermes::store
