// The per-message token cost the compressor budgets its protected regions with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

// The rough rate of text to tokens the estimates use.
inline constexpr int64_t kCharsPerToken = 4;
// What one image part is estimated at.
inline constexpr int64_t kImageTokens = 1'600;
// A protected tail keeps at least min(protect_last_n, this many) messages, whatever its
// token budget says.
inline constexpr std::size_t kTailMessageFloorCap = 8;

// Content tokens plus 10 for the role and keys, plus the full tool-call envelopes (ids,
// names and JSON structure, not only the argument strings: a turn fanning out into
// parallel calls costs many times its arguments), plus the reasoning replay fields that
// ride the wire unseen. Each image part counts 1,600 tokens.
int64_t estimate_message_budget_tokens(const Message& message);

// The sum over `messages`.
int64_t estimate_budget_tokens(const std::vector<Message>& messages);

}  // namespace hermes::internal
