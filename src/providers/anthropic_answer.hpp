// A finished Anthropic answer (its content blocks, stop reason and usage) as hermes'
// assistant message, for streamed and whole answers alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// The usage counters as Anthropic reports them: input excludes cache reads and writes.
struct AnthropicUsage {
  int64_t input_tokens = 0;
  int64_t cache_creation_tokens = 0;
  int64_t cache_read_tokens = 0;
  int64_t output_tokens = 0;
  int64_t thinking_tokens = 0;
  bool reported = false;

  // Overwrites the counters `usage` states (null and absent ones are kept): the deltas of
  // a stream carry cumulative values.
  void update(const Json& usage);
  // Normalised: input = input + cache writes + cache reads.
  Usage normalized() const;
};

// The content of an answer, in order.
struct AnthropicContent {
  Json blocks = Json::array();  // Complete blocks; tool_use inputs are objects.
  // For each tool_use block, in order, its arguments as JSON text.
  std::vector<std::string> arguments;
};

// Builds the answer. The thinking blocks become reasoning_details (and their text the
// reasoning); when thinking and tool use share the turn, the ordered blocks are kept in
// anthropic_content_blocks, since each signature covers the blocks before it.
ProviderResponse anthropic_answer(const AnthropicContent& content, std::string_view stop_reason,
                                  const AnthropicUsage& usage);

// The normalised finish reason for a stop_reason; an unknown or missing one is
// tool_calls when there are calls, else stop.
std::string anthropic_finish_reason(std::string_view stop_reason, bool has_tool_calls);

// The ApiError for an error object ({"type": "overloaded_error", "message": ...}) sent
// inside a 200 response; its type stands for the HTTP status it would have had.
ApiError anthropic_error(const Json& error, std::string_view raw);

}  // namespace hermes::internal
