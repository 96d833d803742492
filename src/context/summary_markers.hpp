// The texts that frame a compaction summary in the transcript, and recognising summaries
// that earlier compactions (or earlier releases) left there.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// The task field of a summary of a session without any user-authored turn.
inline constexpr std::string_view kNoUserTaskSentinel =
    "None. This session contains no user-authored turns.";

// User rows the runtime itself writes; they are not user input.
inline constexpr std::string_view kContinuationUserContent = kCompressionContinuationUserContent;
inline constexpr std::string_view kTodoSnapshotHeader =
    "[Your active task list was preserved across context compression]";

// The private message key marking a summary (stripped before the wire).
inline constexpr std::string_view kSummaryMetadataKey = kCompressedSummaryMetadataKey;

// What an assistant message whose every call lost its result says instead.
inline constexpr std::string_view kToolCallRemovedContent = "(tool call removed)";

enum class SummaryShape {
  kNone,
  kStandalone,  // The whole message is a summary.
  kMerged,      // A tail message's own content, then the summary.
};

// How `content` relates to a summary (current, legacy or historical prefix).
SummaryShape summary_shape(std::string_view content);

// True for a summary message, by its metadata key or its content.
bool is_summary_message(const Message& message);

// The summary body of `text`: without a merged message's prior content, without any known
// prefix, and without the end marker and what follows it.
std::string strip_summary_prefix(std::string_view text);

// kContextSummaryPrefix, a newline and the body (the prefix alone for an empty body).
std::string with_summary_prefix(std::string_view body);

// What a message carries besides a summary: a copy of a non-summary; a merged message
// unwrapped to its own content; the text after the end marker of a standalone summary
// that had the live request appended; nullopt for a plain standalone summary.
std::optional<Message> without_summary(const Message& message);

// True for user rows written by the runtime: summaries, the continuation marker, the todo
// snapshot, and one-shot scaffolding prompts.
bool is_synthetic_user_turn(const Message& message);

// True for a user message a person wrote: not synthetic and not blank.
bool is_real_user_turn(const Message& message);

}  // namespace hermes::internal
