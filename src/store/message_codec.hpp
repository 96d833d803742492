// How a Message becomes a row of the messages table and back, in upstream's encoding so
// either program reads the other's transcripts. Both stores keep rows in this form, so the
// memory store stores exactly what the SQLite store would.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes::store {

// List content is stored as this prefix followed by the JSON of the parts.
inline constexpr std::string_view kJsonContentPrefix{"\0json:", 6};
// What replaces an image part: base64 payloads are never stored.
inline constexpr std::string_view kImagePlaceholder = "[screenshot]";

// The stored columns of one message. Absent values are NULL in the table.
struct MessageRow {
  std::string role;
  std::optional<std::string> content;
  std::optional<std::string> tool_call_id;
  std::optional<std::string> tool_calls;  // JSON array of OpenAI tool calls.
  std::optional<std::string> tool_name;
  double timestamp = 0;  // 0 until assign_timestamps() fills it.
  std::optional<std::string> finish_reason;
  std::optional<std::string> reasoning;
  std::optional<std::string> reasoning_content;
  std::optional<std::string> reasoning_details;      // JSON.
  std::optional<std::string> codex_reasoning_items;  // JSON.
  std::optional<std::string> codex_message_items;    // JSON.
  std::optional<std::string> api_content;
  std::optional<std::string> display_kind;
  int64_t tool_call_count = 0;  // Entries of tool_calls, for sessions.tool_call_count.
};

// The row for `message`. InvalidArgument for scaffolding, which must never be stored.
// Reasoning columns are kept for assistant rows only; image parts become "[screenshot]".
Result<MessageRow> encode_message(const Message& message);

// The message a row holds, or nullopt for rows that are not conversation messages (an
// unknown role such as upstream's "session_meta"). Unparsable tool_calls read as none.
std::optional<Message> decode_message(const MessageRow& row);

// Gives every row without a plausible timestamp the clock value `now`, but never less than
// the previous row's timestamp plus 1 microsecond, so a batch's default timestamps never
// go backwards.
void assign_timestamps(std::vector<MessageRow>& rows, double now);

// The current time as Unix seconds.
double unix_now();

}  // namespace hermes::store
