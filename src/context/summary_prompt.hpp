// Phase 3 input: the middle of the conversation written out for the summariser, and the
// prompt around it (structured template, iterative update, focus topic, memory context).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// The template headings, in order.
inline constexpr std::string_view kSummaryHeadings[] = {"## Historical Task Snapshot",
                                                        "## Goal",
                                                        "## Constraints & Preferences",
                                                        "## Completed Actions",
                                                        "## Active State",
                                                        "## Historical In-Progress State",
                                                        "## Blocked",
                                                        "## Key Decisions",
                                                        "## Resolved Questions",
                                                        "## Historical Pending User Asks",
                                                        "## Relevant Files",
                                                        "## Historical Remaining Work",
                                                        "## Critical Context"};

// `turns` as labelled text ([USER], [ASSISTANT] with its tool calls as name(args),
// [TOOL RESULT <id>]), each message cut to 4,000 + 1,500 characters when over 6,000 and
// tool arguments to 1,200 when over 1,500, secrets redacted, reasoning blocks and media
// directives removed, images as labels.
std::string serialize_for_summary(const std::vector<Message>& turns, const RedactionHook& redact);

// `text` cut to `max_chars` (keeping its start and its end around a marker naming what was
// left out), so one summary request stays bounded however long the region.
std::string bound_summary_input(std::string_view text, std::size_t max_chars = 160'000);

// Memory-provider context capped at 6,000 characters: the first 4,000 and the last 1,500
// around a marker. Blank text gives "".
std::string sanitize_memory_context(std::string_view text);

// "Recent user focus:" and the last three user messages (each cut to 260 characters, 700
// in all); empty when there are none.
std::string derive_auto_focus_topic(const std::vector<Message>& messages,
                                    const RedactionHook& redact);

struct SummaryPromptInputs {
  std::string_view turns;             // serialize_for_summary, bounded.
  std::string_view previous_summary;  // The last summary's body; empty on a first compaction.
  std::string_view focus_topic;
  std::string_view memory_context;  // Sanitised.
  int64_t budget_tokens = 0;
  bool has_user_turn = true;  // False for sessions without a user-authored turn.
  std::string_view today;     // "YYYY-MM-DD", or empty to leave dates out.
};

// The single user message sent to the summariser.
std::string build_summary_prompt(const SummaryPromptInputs& inputs);

}  // namespace hermes::internal
