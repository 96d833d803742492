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

// The text of the assistant turn that closes a transcript interrupted after a tool result.
inline constexpr std::string_view kInterruptedTurnText = "Operation interrupted.";

// Every function below has a Message form and a JSON form. The JSON forms take any JSON
// list: messages whose role no provider accepts (missing, not a string, or not one of
// system, developer, user, assistant, tool) are dropped, as are tool results without a
// tool_call_id; an element that is not an object, or a known field of the wrong type,
// is an InvalidArgument naming the index and the field ("messages[2].content: ...").
// None of them modifies its input.

// Repairs the stored transcript: drops tool results that do not answer a call of the
// assistant message before them and user messages with nothing in them (empty,
// whitespace, null content, or only blank text parts), then merges consecutive user
// messages: two texts with a blank line between them, and when either has content parts,
// its parts after the other's (a text becoming a text part). A recovery prompt flagged
// as scaffolding is never merged: the loop removes it after the call.
HERMES_API std::vector<Message> repair_message_sequence(std::vector<Message> messages);
HERMES_API Result<Json> repair_message_sequence(const Json& messages);

// True for an assistant message with no visible text and no tool calls but with
// reasoning (or only <think> blocks as content). The JSON form is false for other roles.
HERMES_API bool is_thinking_only_assistant(const Message& message);
HERMES_API Result<bool> is_thinking_only_assistant(const Json& message);

// Drops thinking-only assistant messages and empty user messages, and merges the user
// messages that become adjacent (as repair_message_sequence merges). A thinking-only
// message flagged as scaffolding is kept: it is a prefill the loop sends on purpose (the
// reasoning of a thinking-only reply, replayed so the model continues from it).
HERMES_API std::vector<Message> drop_thinking_only_and_merge_users(std::vector<Message> messages);
HERMES_API Result<Json> drop_thinking_only_and_merge_users(const Json& messages);

// Prepares a copy for the wire: api_content replaces content; hermes's bookkeeping
// (timestamp, display_kind, finish_reason, display_metadata, private keys with a leading
// "_", scaffolding flags) goes; orphan tool results are dropped and missing results
// stubbed (kMissingToolResultStub); thinking-only assistant turns and empty user messages
// are dropped and the user messages around them merged; content is whitespace-stripped;
// tool-call arguments are repaired (repair_tool_call_arguments) and re-serialised
// compactly with sorted keys; invalid UTF-8 and lone surrogates become U+FFFD.
HERMES_API std::vector<Message> sanitize_api_messages(std::vector<Message> messages);
HERMES_API Result<Json> sanitize_api_messages(const Json& messages);

// Argument text a provider will parse, from what a model produced: valid JSON as given;
// raw control characters inside strings escaped; trailing commas removed; brackets a
// truncation left open closed in order (and ones a model skipped inserted before the
// outer closer); surplus closers trimmed. Empty text, Python's "None", text cut inside a
// string and anything else past repair become "{}".
HERMES_API std::string repair_tool_call_arguments(std::string_view raw);

// When the transcript ends on a tool result (a turn interrupted after its tools ran),
// appends an assistant message with `final_response` (trimmed), or kInterruptedTurnText
// when that is empty, so the next user message does not follow a tool result. Returns
// whether a message was appended. The JSON form returns the closed copy.
HERMES_API bool close_interrupted_tool_sequence(std::vector<Message>& messages,
                                                std::string_view final_response = {});
HERMES_API Result<Json> close_interrupted_tool_sequence(const Json& messages,
                                                        std::string_view final_response = {});

// A copy of a JSON message list with every string in it (content, parts, names, tool
// call ids and arguments, reasoning details, keys) cleared of invalid UTF-8 and lone
// surrogates, which become U+FFFD. Nothing else changes.
HERMES_API Result<Json> sanitize_messages_surrogates(const Json& messages);

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
