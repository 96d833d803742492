// hermes/message.hpp — the conversation as hermes holds it: messages, tool calls, usage.
//
// Messages have the shape of OpenAI Chat Completions messages, extended with the
// provider-native fields that must be replayed verbatim on later requests (reasoning
// details, Anthropic blocks, Responses items). Every provider converts to and from this
// shape; nothing above the providers sees wire JSON.
#pragma once

#include "hermes/export.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes {

enum class Role : uint8_t { kSystem, kUser, kAssistant, kTool };

// "system", "user", "assistant" or "tool".
HERMES_API std::string_view role_name(Role role);
// Parses a role name; "developer" is read as kSystem. Returns nullopt for anything else.
HERMES_API std::optional<Role> parse_role(std::string_view name);

// One function call requested by the model.
struct HERMES_API ToolCall {
  std::string id;
  std::string name;
  // The arguments as JSON text, exactly as the model produced them (they may not parse;
  // the loop answers unparsable arguments with an error result the model can read).
  std::string arguments;
  // Other keys of the call object (for example a Gemini thought signature), or null.
  Json extra;

  bool operator==(const ToolCall& other) const;
  bool operator!=(const ToolCall& other) const { return !(*this == other); }
};

// Token usage of one or more model calls, normalised across providers.
struct HERMES_API Usage {
  int64_t input_tokens = 0;        // All prompt tokens, including cache reads and writes.
  int64_t output_tokens = 0;       // All generated tokens, including reasoning.
  int64_t cache_read_tokens = 0;   // Prompt tokens served from the provider's cache.
  int64_t cache_write_tokens = 0;  // Prompt tokens written to the provider's cache.
  int64_t reasoning_tokens = 0;    // The reasoning share of output_tokens.
  // False when the provider reported nothing: the counters are then unknown, not zero.
  bool reported = false;

  int64_t total_tokens() const { return input_tokens + output_tokens; }
  Usage& operator+=(const Usage& other);
  bool operator==(const Usage& other) const;
  bool operator!=(const Usage& other) const { return !(*this == other); }
};

// One message of a conversation.
//
// JSON form (message_to_json): the OpenAI chat message keys role, content, tool_calls,
// tool_call_id and name, plus reasoning, reasoning_details, codex_reasoning_items,
// codex_message_items, anthropic_content_blocks, finish_reason, api_content, timestamp,
// display_kind, and the private key _scaffolding. Keys hermes does not know are kept in
// `extra` and written back unchanged, so JSON -> Message -> JSON is lossless.
struct HERMES_API Message {
  Role role = Role::kUser;

  // The text. For multimodal content this is the concatenation of the text parts.
  std::string content;
  // The content parts when the content is a list (text and image parts), else null.
  Json parts;

  // Assistant messages: the requested calls, in the order the model gave them.
  std::vector<ToolCall> tool_calls;
  // Tool messages: the call this result answers, and the tool's name.
  std::string tool_call_id;
  std::string name;

  // Assistant messages: reasoning text, and opaque provider data replayed verbatim.
  std::string reasoning;
  Json reasoning_details;        // OpenRouter reasoning_details / Anthropic thinking blocks.
  Json anthropic_content_blocks; // Ordered Anthropic blocks when thinking interleaves tools.
  Json codex_reasoning_items;    // Responses API reasoning items (with encrypted content).
  Json codex_message_items;      // Responses API assistant message items.
  std::string finish_reason;     // Normalised: stop, length, tool_calls, content_filter...

  // User messages: the exact text sent to the model when it differs from `content`
  // (per-turn context injected by memory or plugins). Persisted, and replayed instead of
  // `content` so the bytes sent stay the bytes stored.
  std::string api_content;

  double timestamp = 0;      // Unix seconds; 0 when unknown.
  std::string display_kind;  // UI hint, e.g. "steer"; empty for ordinary messages.
  // A recovery prompt the loop sends once and removes afterwards; never stored.
  bool scaffolding = false;

  // Keys of the JSON form that hermes does not interpret, or null.
  Json extra;

  bool operator==(const Message& other) const;
  bool operator!=(const Message& other) const { return !(*this == other); }

  // Convenience constructors.
  static Message system(std::string text);
  static Message user(std::string text);
  static Message assistant(std::string text);
  static Message tool(std::string tool_call_id, std::string name, std::string result);

  // The text to send to the model: api_content when set, else content.
  const std::string& wire_text() const { return api_content.empty() ? content : api_content; }
};

// Converts a message to its JSON form.
HERMES_API Json message_to_json(const Message& message);
// Parses the JSON form. Fails with InvalidArgument naming the offending key.
HERMES_API Result<Message> message_from_json(const Json& json);

// The same for lists. messages_from_json names the index of the first bad message.
HERMES_API Json messages_to_json(const std::vector<Message>& messages);
HERMES_API Result<std::vector<Message>> messages_from_json(const Json& json);

// The usage counters as a JSON object (input_tokens, output_tokens, cache_read_tokens,
// cache_write_tokens, reasoning_tokens, total_tokens).
HERMES_API Json usage_to_json(const Usage& usage);

}  // namespace hermes
