// One event of an Anthropic Messages stream, read with a reused simdjson On-Demand
// parser. The delta fields of every delta type are picked out; the objects that arrive
// once per block or message (content_block, message, usage, error) are kept as JSON text.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

// The views point into the reader's buffer: valid until the reader reads again.
struct AnthropicEvent {
  std::string_view type;  // "content_block_delta", ...; "" when absent.
  std::optional<int> index;
  std::string_view delta_type;     // text_delta, thinking_delta, signature_delta, ...
  std::string_view text;           // delta.text
  std::string_view thinking;       // delta.thinking
  std::string_view signature;      // delta.signature
  std::string_view partial_json;   // delta.partial_json
  std::string_view stop_reason;    // delta.stop_reason of message_delta; "" when null.
  std::string_view content_block;  // As JSON text.
  std::string_view message;
  std::string_view usage;
  std::string_view error;

  void clear() { *this = AnthropicEvent(); }
};

// Thread-safety: none; one reader per stream.
class AnthropicEventReader {
 public:
  AnthropicEventReader();
  ~AnthropicEventReader();
  AnthropicEventReader(const AnthropicEventReader&) = delete;
  AnthropicEventReader& operator=(const AnthropicEventReader&) = delete;

  // Reads `json` into `out`. Returns false, with a reason in `error`, when the text is
  // not a JSON object.
  bool read(std::string_view json, AnthropicEvent& out, std::string& error);

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
};

}  // namespace hermes::internal
