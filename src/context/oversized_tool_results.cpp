#include "context/oversized_tool_results.hpp"

#include <string>

#include "common/utf8.hpp"
#include "context/text_cut.hpp"
#include "hermes/token_estimate.hpp"

namespace hermes::internal {
namespace {

int64_t message_tokens(const Message& m) {
  return estimate_messages_tokens_rough({m});
}

// The result a further cut can shorten the most, or nullptr.
Message* longest_shortenable(std::vector<Message>& messages) {
  Message* best = nullptr;
  std::size_t best_chars = 2 * kMinShortenedToolChars;
  for (Message& m : messages) {
    if (m.role != Role::kTool || m.parts.is_array()) continue;
    const std::size_t chars = utf8_length(m.content);
    if (chars > best_chars) {
      best = &m;
      best_chars = chars;
    }
  }
  return best;
}

// The beginning (two thirds of what is kept) and the end of `text`, with the cut stated.
std::string halved(std::string_view text) {
  const std::size_t chars = utf8_length(text);
  const std::size_t keep = std::max(kMinShortenedToolChars, chars / 2);
  const std::size_t head = keep * 2 / 3;
  const std::size_t tail = keep - head;
  return std::string(utf8_head(text, head)) + "\n\n[... " + std::to_string(chars - keep) +
         " characters of tool output omitted to fit the context window ...]\n\n" +
         std::string(utf8_tail(text, tail));
}

}  // namespace

ShrinkResult shrink_oversized_tool_results(std::vector<Message> messages, int64_t target_tokens) {
  ShrinkResult out;
  int64_t total = estimate_messages_tokens_rough(messages);
  while (total > target_tokens) {
    Message* m = longest_shortenable(messages);
    if (m == nullptr) break;
    const int64_t before = message_tokens(*m);
    m->content = halved(m->content);
    m->api_content.clear();
    total += message_tokens(*m) - before;
    ++out.shortened;
  }
  out.messages = std::move(messages);
  return out;
}

}  // namespace hermes::internal
