// hermes' OpenAI-style history as Anthropic `system` and `messages`.
//
// In order: system messages become the top-level system prompt; assistant turns become
// thinking, text and tool_use blocks (or replay their stored ordered blocks); tool results
// become tool_result blocks in one user message per run of results, in call order; then
// orphaned tool_use / tool_result blocks are dropped, consecutive same-role messages are
// merged, a leading user turn is ensured, thinking blocks are kept or stripped by the
// endpoint's replay rules, and blank text is scrubbed. With prompt caching, breakpoints go
// on the system prompt and the last three messages: never more than four.
//
// Each converted message depends on one run of the input and a few facts about the rest
// (anthropic_message_runs.hpp), so it can also be converted alone: convert_anthropic_run.
#pragma once

#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "providers/anthropic_dialect.hpp"
#include "providers/anthropic_message_runs.hpp"

namespace hermes::internal {

struct AnthropicConversation {
  Json system;    // Null (no system prompt), a string, or a list of text blocks.
  Json messages;  // The list of user / assistant messages.
};

AnthropicConversation convert_to_anthropic(const std::vector<Message>& messages,
                                           const AnthropicDialect& dialect, std::string_view model);

// The system prompt convert_to_anthropic writes: null, a string, or one marked text block.
Json anthropic_system_prompt(const std::vector<Message>& messages, const AnthropicDialect& dialect);

// The one message plan.runs[r] (planned from `messages`) converts to: the same as
// convert_to_anthropic writes for it within the whole conversation.
Json convert_anthropic_run(const std::vector<Message>& messages, const AnthropicRunPlan& plan,
                           std::size_t r, const AnthropicDialect& dialect, std::string_view model);

// The user message convert_to_anthropic puts first when the conversation would start
// with the assistant (or has no message at all).
Json anthropic_leading_placeholder();

}  // namespace hermes::internal
