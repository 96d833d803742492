// The last resort of a compaction: tool results too large for the window, shortened
// wherever they stand, the protected head and tail included. A conversation of a few
// messages with huge tool output has no middle to summarise, yet it still has to fit.
#pragma once

#include <cstdint>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

// A shortened result keeps at least this many characters of its output.
inline constexpr std::size_t kMinShortenedToolChars = 1'000;

struct ShrinkResult {
  std::vector<Message> messages;
  int shortened = 0;  // Tool results cut (a result cut twice counts twice).
};

// Halves the largest tool result (its beginning and its end kept, the cut marked) until
// the estimate of the list is at most `target_tokens` or no result is longer than
// 2 × kMinShortenedToolChars characters. Results whose content is a list of parts are
// left alone.
ShrinkResult shrink_oversized_tool_results(std::vector<Message> messages, int64_t target_tokens);

}  // namespace hermes::internal
