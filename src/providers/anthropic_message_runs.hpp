// The Anthropic messages of a conversation as runs of hermes messages. Each message the
// conversion (anthropic_message_conversion.hpp) writes comes from one contiguous run of
// the input: consecutive messages of one side merged (tool results and user messages on
// the user side), with the system messages and thinking-only replies between them
// skipped. What shapes it besides its run's own messages is small and said here: which
// of its members carry a cache breakpoint, which tool calls of its last message the next
// run answers, which of its tool results some call still asks for, and whether it is the
// last assistant message. A run's encoding can be kept and reused while all of these are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/message.hpp"
#include "providers/anthropic_dialect.hpp"

namespace hermes::internal {

// The four breakpoints the API allows: one on the system prompt, three on messages.
inline constexpr int kMaxCacheBreakpoints = 4;

// The input messages the conversation is written from, and where its breakpoints go.
struct AnthropicSources {
  std::vector<std::size_t> others;  // Not system, not a thinking-only reply; in order.
  std::vector<bool> marked;         // Per input message: carries a cache breakpoint.
  bool has_system = false;          // Some system message has text: a system prompt.
};

// With prompt caching, one breakpoint on the system prompt and the rest on the newest
// messages (kMaxCacheBreakpoints in all).
AnthropicSources anthropic_sources(const std::vector<Message>& messages,
                                   const AnthropicDialect& dialect);

struct AnthropicRun {
  bool assistant = false;
  std::size_t from = 0, to = 0;     // Its messages: sources.others[from, to), ascending.
  std::size_t first = 0, last = 0;  // The input indices of its first and last message.
  // The ids of its own tool blocks that go for want of the other half, in order: the
  // calls of its last message the next run does not answer, or the results no kept call
  // asks for. Views into the input messages, unsanitised; usually none.
  std::vector<std::string_view> dropped_ids;
  bool last_assistant = false;  // The conversation's last assistant message.
};

// A plan holds views into the messages it was made from: it lives no longer than they do
// and is made again when they change.
struct AnthropicRunPlan {
  AnthropicSources sources;
  std::vector<AnthropicRun> runs;  // Alternating sides, in order.
};

AnthropicRunPlan plan_anthropic_runs(const std::vector<Message>& messages,
                                     const AnthropicDialect& dialect);

// Appends to `ids` the ids of the tool_use blocks an assistant message converts to: its
// stored blocks' when it replays them, else its tool calls'. Views into `message`, in
// order, unsanitised.
void anthropic_tool_use_ids(const Message& message, std::vector<std::string_view>& ids);

// The sanitised ids of the tool results that open run `r` (for the assistant run before
// it, the calls its last message may keep); empty when there is no such run.
std::set<std::string> anthropic_opening_result_ids(const std::vector<Message>& messages,
                                                   const AnthropicRunPlan& plan, std::size_t r);

// The sanitised ids of user run `run`'s tool results that some kept call asks for.
std::set<std::string> anthropic_asked_result_ids(const std::vector<Message>& messages,
                                                 const AnthropicRunPlan& plan,
                                                 const AnthropicRun& run);

// A hash of what shapes `run`'s message besides its members' content and whether it is
// the last assistant message (the caller knows when that matters): its span of the input,
// its breakpoints and its dropped tool ids; continuing `seed`.
uint64_t anthropic_run_shape(const AnthropicRunPlan& plan, const AnthropicRun& run, uint64_t seed);

}  // namespace hermes::internal
