#include "agent/intent_ack.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

// Longer answers are real answers that happen to mention a plan.
constexpr std::size_t kMaxAckChars = 1200;

constexpr std::array<std::string_view, 6> kFuturePhrases = {
    "i'll", "i\xE2\x80\x99ll", "i will", "let me", "i can do that", "i can help with that"};
constexpr std::array<std::string_view, 19> kActionMarkers = {
    "look into", "look at", "inspect",     "scan",        "check",    "analyz", "review",
    "explore",   "read",    "open",        "run",         "test",     "fix",    "debug",
    "search",    "find",    "walkthrough", "report back", "summarize"};
constexpr std::array<std::string_view, 13> kWorkspaceMarkers = {
    "directory", "current directory", "current dir", "cwd",        "repo",      "repository",
    "codebase",  "project",           "folder",      "filesystem", "file tree", "files",
    "path"};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// `phrase` occurs in `text` as whole words.
bool has_words(std::string_view text, std::string_view phrase) {
  for (std::size_t at = text.find(phrase); at != std::string_view::npos;
       at = text.find(phrase, at + 1)) {
    const std::size_t end = at + phrase.size();
    const bool starts = at == 0 || !is_word_char(text[at - 1]);
    const bool ends = end == text.size() || !is_word_char(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

template <std::size_t N>
bool contains_any(std::string_view text, const std::array<std::string_view, N>& markers) {
  return std::any_of(markers.begin(), markers.end(),
                     [&](std::string_view m) { return text.find(m) != std::string_view::npos; });
}

bool tool_ran_since(const std::vector<Message>& messages, std::size_t turn_start) {
  for (std::size_t i = turn_start; i < messages.size(); ++i) {
    if (messages[i].role == Role::kTool || !messages[i].tool_calls.empty()) return true;
  }
  return false;
}

}  // namespace

bool looks_like_intent_ack(std::string_view user_message, std::string_view answer,
                           const std::vector<Message>& messages, std::size_t turn_start) {
  if (answer.empty() || answer.size() > kMaxAckChars) return false;
  if (tool_ran_since(messages, turn_start)) return false;
  const std::string said = lower_ascii(answer);
  const bool announces = std::any_of(kFuturePhrases.begin(), kFuturePhrases.end(),
                                     [&](std::string_view p) { return has_words(said, p); });
  if (!announces || !contains_any(said, kActionMarkers)) return false;
  const std::string asked = lower_ascii(user_message);
  return contains_any(said, kWorkspaceMarkers) || contains_any(asked, kWorkspaceMarkers) ||
         asked.find('/') != std::string::npos;
}

}  // namespace hermes::internal
