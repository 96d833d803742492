// hermes' OpenAI-style history as Anthropic `system` and `messages`.
//
// In order: system messages become the top-level system prompt; assistant turns become
// thinking, text and tool_use blocks (or replay their stored ordered blocks); tool results
// become tool_result blocks in one user message per run of results, in call order; then
// orphaned tool_use / tool_result blocks are dropped, consecutive same-role messages are
// merged, a leading user turn is ensured, thinking blocks are kept or stripped by the
// endpoint's replay rules, and blank text is scrubbed. With prompt caching, breakpoints go
// on the system prompt and the last three messages: never more than four.
#pragma once

#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "providers/anthropic_dialect.hpp"

namespace hermes::internal {

struct AnthropicConversation {
  Json system;    // Null (no system prompt), a string, or a list of text blocks.
  Json messages;  // The list of user / assistant messages.
};

// The four breakpoints the API allows: one on the system prompt, three on messages.
inline constexpr int kMaxCacheBreakpoints = 4;

AnthropicConversation convert_to_anthropic(const std::vector<Message>& messages,
                                           const AnthropicDialect& dialect, std::string_view model);

}  // namespace hermes::internal
