// Phase 1 of compaction: shrink old tool output without a model call. Old results become
// one-line descriptions, repeated results a back-reference, old screenshots a placeholder,
// and oversized tool-call arguments are cut inside their JSON so they stay valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// The placeholders (kDuplicateToolOutput, ...) are in hermes/context_compressor.hpp.

struct PruneSettings {
  // The protected tail: at least this many trailing messages (capped at 8 when a token
  // budget is given, so a bulky run of recent output cannot freeze pruning)...
  int protect_tail_count = 20;
  // ...or, when set, as many as fit in this many tokens, whichever is more.
  std::optional<int64_t> protect_tail_tokens;
  // Results at most this long (in characters) are never described away.
  int64_t min_prune_chars = 200;
};

struct PruneResult {
  std::vector<Message> messages;
  int pruned = 0;  // Tool results replaced plus assistant messages whose arguments shrank.
};

// Prunes a copy of `messages`. Duplicates are replaced everywhere (the newest copy stays,
// so nothing unique is lost); everything else only outside the protected tail.
PruneResult prune_old_tool_results(const std::vector<Message>& messages,
                                   const PruneSettings& settings);

// `arguments` with every string longer than `max_string_chars` inside its JSON cut to that
// length plus "...[truncated]", re-serialised; unchanged when it is not JSON (cutting the
// raw text would leave JSON that providers reject with a 400 on every later request).
std::string shrink_tool_call_arguments(std::string_view arguments,
                                       std::size_t max_string_chars = 200);

}  // namespace hermes::internal
