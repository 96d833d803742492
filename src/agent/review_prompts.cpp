// What the background review is asked, and what it reports when it is done.
#include <map>
#include <set>

#include "agent/background_review.hpp"
#include "common/json_text.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kMemoryReview =
    "Look back over the conversation above and decide whether anything in it belongs in "
    "long-term memory. Two things qualify: what the user revealed about themselves (who "
    "they are, what they want, their preferences, personal details worth recalling), and "
    "what the user expects of you (how you should behave, work or answer). If something "
    "qualifies, save it with the memory tool as a short factual entry. If nothing does, "
    "reply \"Nothing to save.\" and stop.";

constexpr std::string_view kSkillReview =
    "Look back over the conversation above and decide whether the skill library should "
    "change. It should when the task needed a non-trivial approach: trial and error, a "
    "change of course after something was learned, or a different method or result than "
    "first tried because the user asked for it. If a skill covering this already exists "
    "(check skills_list or skill_view), patch it with what was learned. Otherwise, if the "
    "approach will be useful again, create a skill for it with skill_manage: a reusable "
    "procedure, not a story of this session, with no dates, identifiers or claims that a "
    "tool is broken. If nothing qualifies, reply \"Nothing to save.\" and stop.";

constexpr std::string_view kCombinedReview =
    "Look back over the conversation above and decide what is worth keeping, then save "
    "it.\n\n"
    "Memory: what the user revealed about themselves (who they are, what they want, their "
    "preferences) or what they expect of you (how to behave, work or answer). Save it with "
    "the memory tool as a short factual entry.\n\n"
    "Skills: if the task needed a non-trivial approach (trial and error, a change of "
    "course, or a different method because the user asked for it), patch the existing "
    "skill that covers it, or create one with skill_manage if the approach will be useful "
    "again. Write a reusable procedure, not a story of this session.\n\n"
    "If nothing qualifies for either, reply \"Nothing to save.\" and stop.";

// The line for one successful call, or "" for calls that change nothing worth telling.
std::string describe_change(const std::string& tool, const Json& args) {
  if (tool == "memory") {
    return string_member(args, "target") == "user" ? "User profile updated" : "Memory updated";
  }
  const std::string action = string_member(args, "action");
  const std::string name = string_member(args, "name");
  if (action == "create") return "Skill created: " + name;
  if (action == "delete") return "Skill deleted: " + name;
  if (!action.empty()) return "Skill updated: " + name;
  return "";
}

}  // namespace

std::string review_prompt(ReviewFocus focus) {
  if (focus.memory && focus.skills) return std::string(kCombinedReview);
  return std::string(focus.memory ? kMemoryReview : kSkillReview);
}

std::string summarize_review(const std::vector<Message>& messages, std::size_t from) {
  std::map<std::string, const ToolCall*> calls;
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (std::size_t i = from; i < messages.size(); ++i) {
    const Message& m = messages[i];
    for (const ToolCall& call : m.tool_calls) calls[call.id] = &call;
    if (m.role != Role::kTool || (m.name != "memory" && m.name != "skill_manage")) continue;
    auto result = parse_json(m.content);
    if (!result || !result->is_object() || !result->value("success", false) ||
        result->value("staged", false)) {
      continue;
    }
    auto call = calls.find(m.tool_call_id);
    if (call == calls.end()) continue;
    auto args = parse_json(call->second->arguments);
    std::string line = describe_change(m.name, args && args->is_object() ? *args : Json::object());
    if (!line.empty() && seen.insert(line).second) lines.push_back(std::move(line));
  }
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : "; ") + line;
  return out;
}

}  // namespace hermes::internal
