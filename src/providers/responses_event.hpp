// One event of a Responses API stream, read with a reused simdjson On-Demand parser.
// Only the fields the assembler needs are picked out; whole items and responses (rare,
// and structured) are kept as JSON text for nlohmann to parse.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

// The views point into the reader's buffer: valid until the reader reads again.
struct ResponsesEvent {
  std::string_view type;  // "response.output_text.delta", ...; "" when absent.
  std::string_view delta;
  std::string_view item_id;
  std::optional<int> output_index;  // llama.cpp leaves it out of its closing events.
  std::string_view arguments;       // function_call_arguments.done
  std::string_view item;            // The `item` object, as JSON text.
  std::string_view response;        // The `response` object, as JSON text.

  void clear() { *this = ResponsesEvent(); }
};

// Thread-safety: none; one reader per stream.
class ResponsesEventReader {
 public:
  ResponsesEventReader();
  ~ResponsesEventReader();
  ResponsesEventReader(const ResponsesEventReader&) = delete;
  ResponsesEventReader& operator=(const ResponsesEventReader&) = delete;

  // Reads `json` into `out`. Returns false, with a reason in `error`, when the text is
  // not a JSON object.
  bool read(std::string_view json, ResponsesEvent& out, std::string& error);

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
};

}  // namespace hermes::internal
