// The agent benchmark's workload, shared by every contender: a prior history of realistic
// messages, the scripted model answers (a tool call `add` per step, then a final text)
// and the `add` tool itself.
#pragma once

#include <string>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/tool.hpp"

namespace hermes::bench {

// `count` prior messages in OpenAI chat form, the same for every run: user questions,
// assistant tool calls with their results, assistant answers, of sizes seen in real
// coding-agent sessions (a few hundred bytes to a few kilobytes).
Json make_history(int count);

// The model's side of one conversation of `steps` model calls: steps - 1 tool calls of
// `add`, then a final text, as mock server response specs (SSE when `stream`).
Json make_script(int steps, bool stream);

// The user message that opens each benchmark conversation.
std::string opening_message();

// The `add` tool: {"a": number, "b": number} -> {"sum": a + b}.
ToolSpec add_tool();

// The text bytes of `messages` (contents, tool arguments): what a history must hold.
std::size_t text_bytes(const std::vector<Message>& messages);

}  // namespace hermes::bench
