#include "context/platform_hints.hpp"

#include <array>
#include <utility>

namespace hermes::internal {
namespace {

constexpr std::string_view kNoTables =
    "Tables do not render there: use bullet lists or \"Label: value\" lines for structured "
    "data.";

struct Hint {
  std::string_view source;
  std::string_view text;
  bool markdown_without_tables;  // Followed by kNoTables.
};

// Each line says what the reader's screen does with the answer; the wording is ours.
constexpr std::array<Hint, 11> kHints = {{
    {"cron",
     "You are running as a scheduled job and no user is present: you cannot ask questions or "
     "wait for answers. Carry the task out on your own, making reasonable choices where "
     "needed. Your final response is delivered as the job's output, so put the result itself "
     "in it.",
     false},
    {"telegram",
     "You are talking with the user on Telegram. Standard markdown (bold, italic, "
     "strikethrough, inline code, code blocks, links, headers) is converted for display.",
     true},
    {"discord",
     "You are talking with the user in a Discord server or group chat. Discord renders "
     "standard markdown: bold, italic, code blocks and links.",
     true},
    {"slack",
     "You are talking with the user in a Slack workspace. Standard markdown (bold, headers, "
     "links, code) is converted to Slack's formatting.",
     true},
    {"whatsapp",
     "You are talking with the user on WhatsApp. Standard markdown is converted to WhatsApp's "
     "own bold, italic, strikethrough and monospace, bullets included.",
     true},
    {"signal",
     "You are talking with the user on Signal. Standard markdown (bold, italic, "
     "strikethrough, headers, code) is converted to Signal's formatting.",
     true},
    {"matrix",
     "You are talking in a Matrix room. Your markdown becomes HTML: bold, italic, code, "
     "headings, lists, quotes and links render; spoilers, strikethrough and checkboxes show "
     "as literal characters. Prefer [descriptive text](url) to bare links.",
     true},
    {"mattermost",
     "You are talking with the user in a Mattermost workspace, which renders standard "
     "markdown, tables included.",
     false},
    {"email",
     "You are answering by email. Write a clear, well-structured message in plain text (no "
     "markdown). Be concise but complete, and leave out greetings and sign-offs unless the "
     "conversation calls for them.",
     false},
    {"sms",
     "You are answering by SMS. Use plain text only, no markdown, and stay brief: a message "
     "holds about 1,600 characters.",
     false},
    {"bluebubbles",
     "You are talking with the user over iMessage, which shows plain text: no markdown. Keep "
     "answers short, like text messages.",
     false},
}};

}  // namespace

std::string platform_hint(std::string_view source) {
  for (const Hint& hint : kHints) {
    if (hint.source != source) continue;
    std::string text(hint.text);
    if (hint.markdown_without_tables) text.append(" ").append(kNoTables);
    return text;
  }
  return "";
}

}  // namespace hermes::internal
