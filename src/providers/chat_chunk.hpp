// One Chat Completions payload read off the wire: a streamed chat.completion.chunk, or a
// whole chat.completion (whose choices[0].message has the shape of a delta).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

// One entry of delta.tool_calls (or of message.tool_calls).
struct ToolCallDelta {
  int index = 0;
  bool has_index = false;
  std::string id;  // Integer ids (Poolside) are turned into text.
  std::string_view name;
  std::string_view arguments;      // A fragment, or the whole arguments of a complete call.
  std::string_view extra_content;  // Gemini's thought signature object, as JSON text.
};

// The views point into the reader's buffers: valid until the reader reads again.
struct ChatChunk {
  std::string_view id;
  std::string_view model;

  bool has_choice = false;  // choices held at least one entry; the fields below are its.
  std::string_view content;
  std::string_view reasoning;          // reasoning_content, else reasoning.
  std::string_view reasoning_details;  // The reasoning_details array, as JSON text.
  std::vector<ToolCallDelta> tool_calls;
  std::string_view finish_reason;  // Empty when null or absent.

  bool has_usage = false;
  Usage usage;

  // The chunk reports a failure: a truthy top-level `error`, {"object":"error"}, or
  // DeepInfra's error_type / error_message.
  bool is_error = false;

  void clear();

  // Storage behind views that could not point into the JSON (flattened content parts).
  std::string content_storage;
};

// Reads Chat Completions payloads with a reused simdjson On-Demand parser.
//
// Thread-safety: none; one reader per stream.
class ChatChunkReader {
 public:
  ChatChunkReader();
  ~ChatChunkReader();
  ChatChunkReader(const ChatChunkReader&) = delete;
  ChatChunkReader& operator=(const ChatChunkReader&) = delete;

  // Reads `json` into `out`. `is_completion` selects choices[0].message (a whole
  // response) over choices[0].delta. Returns false, with a reason in `error`, when the
  // text is not a JSON object.
  bool read(std::string_view json, bool is_completion, ChatChunk& out, std::string& error);

 private:
  // The simdjson parser stays out of this header: its layout depends on build flags
  // that only the library's own sources are guaranteed to share.
  struct Parser;
  std::unique_ptr<Parser> parser_;
};

}  // namespace hermes::internal
