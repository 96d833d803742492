#include "faults/transcript_audit.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hermes::testing {
namespace {

void find_duplicates(const std::vector<Message>& stored, std::vector<std::string>& problems) {
  std::set<std::string> seen;
  for (const Message& m : stored) {
    if (!seen.insert(describe(m)).second) problems.push_back("stored twice: " + describe(m));
  }
}

void find_unpaired_tool_calls(const std::vector<Message>& stored,
                              std::vector<std::string>& problems) {
  std::map<std::string, int> results;  // Call id -> results seen; absent: never called.
  for (const Message& m : stored) {
    if (m.role == Role::kAssistant) {
      for (const ToolCall& call : m.tool_calls) results.emplace(call.id, 0);
    } else if (m.role == Role::kTool) {
      auto it = results.find(m.tool_call_id);
      if (it == results.end()) {
        problems.push_back("a tool result answers no earlier call: " + m.tool_call_id);
      } else {
        ++it->second;
      }
    }
  }
  for (const auto& [id, count] : results) {
    if (count != 1) {
      problems.push_back("tool call " + id + " has " + std::to_string(count) + " results");
    }
  }
}

void compare_with_accepted(const std::vector<Message>& stored, const std::vector<Message>& accepted,
                           std::vector<std::string>& problems) {
  const std::size_t common = std::min(stored.size(), accepted.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (describe(stored[i]) != describe(accepted[i])) {
      problems.push_back("message " + std::to_string(i) + " is stored as " + describe(stored[i]) +
                         " but was accepted as " + describe(accepted[i]));
    }
  }
  for (std::size_t i = common; i < stored.size(); ++i) {
    problems.push_back("stored but never accepted: " + describe(stored[i]));
  }
  for (std::size_t i = common; i < accepted.size(); ++i) {
    problems.push_back("accepted but not stored: " + describe(accepted[i]));
  }
}

}  // namespace

std::string describe(const Message& message) {
  std::string text = std::string(role_name(message.role)) + ": " + message.content;
  for (const ToolCall& call : message.tool_calls) {
    text += " [call " + call.id + " " + call.name + " " + call.arguments + "]";
  }
  if (!message.tool_call_id.empty()) text += " [answers " + message.tool_call_id + "]";
  return text;
}

std::vector<std::string> transcript_problems(const std::vector<Message>& stored,
                                             const std::vector<Message>& accepted) {
  std::vector<std::string> problems;
  compare_with_accepted(stored, accepted, problems);
  find_duplicates(stored, problems);
  find_unpaired_tool_calls(stored, problems);
  return problems;
}

}  // namespace hermes::testing
