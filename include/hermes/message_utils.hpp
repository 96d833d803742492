// hermes/message_utils.hpp — repairs for conversation histories.
//
// Providers reject histories that break their rules (a tool call without its result, a
// result without its call, two user messages in a row, an assistant turn with nothing but
// reasoning). The agent applies these repairs to the copy it sends; embedders that keep
// their own histories can apply them too. Each function has a Message form and a form
// that takes and returns OpenAI-format JSON.
#pragma once

#include "hermes/export.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes {

// The content of a stub result for a tool call whose result is missing.
inline constexpr std::string_view kMissingToolResultStub =
    "[Result unavailable \xE2\x80\x94 see context summary above]";

// Repairs the stored transcript: drops tool results that do not answer a call of the
// assistant message before them, and merges consecutive plain-text user messages with a
// blank line. Multimodal user messages are never merged.
HERMES_API std::vector<Message> repair_message_sequence(std::vector<Message> messages);
HERMES_API Result<Json> repair_message_sequence(const Json& messages);

// True for an assistant message with no visible text and no tool calls but with
// reasoning (or only <think> blocks as content).
HERMES_API bool is_thinking_only_assistant(const Message& message);
HERMES_API Result<bool> is_thinking_only_assistant(const Json& message);

// Drops thinking-only assistant messages and merges the user messages that become
// adjacent. One flagged as scaffolding is kept: it is a prefill the loop sends on purpose
// (the reasoning of a thinking-only reply, replayed so the model continues from it).
HERMES_API std::vector<Message> drop_thinking_only_and_merge_users(std::vector<Message> messages);
HERMES_API Result<Json> drop_thinking_only_and_merge_users(const Json& messages);

// Prepares a copy for the wire: api_content replaces content; private keys (leading "_")
// and scaffolding flags go; orphan tool results are dropped and missing results stubbed
// (kMissingToolResultStub); thinking-only assistant turns are dropped and the user
// messages around them merged; content is whitespace-stripped; tool-call arguments are
// re-serialised compactly with sorted keys ("{}" when they do not parse); invalid UTF-8
// and lone surrogates become U+FFFD.
HERMES_API std::vector<Message> sanitize_api_messages(std::vector<Message> messages);
HERMES_API Result<Json> sanitize_api_messages(const Json& messages);

// `text` with invalid UTF-8 and lone surrogates replaced by U+FFFD.
HERMES_API std::string sanitize_surrogates(std::string_view text);

// Maps a tool name the model invented onto an available one: lower-casing, the legacy
// names of renamed tools ("todo" -> "todo_list", "process", "cronjob"), '-' and ' '
// to '_', CamelCase to snake_case, a trailing "_tool"/"-tool"/"tool" removed (up to
// twice), then the closest name with a similarity of at least 0.7. nullopt if none fits.
HERMES_API std::optional<std::string> coerce_tool_name(std::string_view name,
                                                       const std::vector<std::string>& available);

// Maps a provider's finish reason onto stop, length, tool_calls, content_filter,
// incomplete or error ("end_turn" -> "stop", "max_tokens" -> "length", ...). Unknown
// values are returned lower-cased; an empty value is "stop".
HERMES_API std::string normalize_finish_reason(std::string_view value);

}  // namespace hermes
