// Phase 2 of compaction: where the protected head ends and the protected tail begins.
// Everything between is summarised. Boundaries never separate an assistant's tool calls
// from their results, and the latest user message always stays in the tail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

struct BoundarySettings {
  int protect_last_n = 20;
  int64_t tail_token_budget = 0;
  int min_tail_user_messages = 1;
};

// The system message (when first) plus `protect_first_n` more, bounded by the list.
std::size_t protected_head_size(const std::vector<Message>& messages, int protect_first_n);

// `idx` moved forward past tool results, so a region starting there does not begin with
// results whose call lies before it.
std::size_t align_boundary_forward(const std::vector<Message>& messages, std::size_t idx);

// `idx` moved back to the assistant message whose tool results precede it, so the group
// lies on one side of the boundary.
std::size_t align_boundary_backward(const std::vector<Message>& messages, std::size_t idx);

// The index of the newest message a person wrote, at or after `from`.
std::optional<std::size_t> last_real_user_index(const std::vector<Message>& messages,
                                                std::size_t from);

// The start of the protected tail, walking back from the end under the token budget (a
// message may overshoot it up to 1.5×), keeping at least max(3, min(protect_last_n, 8))
// messages, then applying the anchors: whole tool groups, the latest user message (with
// the turn it opens when it sits right at the head), the latest visible assistant reply,
// and the last `min_tail_user_messages` user messages. Always > head_end.
std::size_t find_tail_cut(const std::vector<Message>& messages, std::size_t head_end,
                          const BoundarySettings& settings);

// When the tail would start with the latest user message, the tail start moved back to
// the assistant turn before it (with its tool results), so a summary that must merge into
// the first tail message never wraps the live request as "prior context". Unchanged when
// that would reach into the head.
std::size_t keep_bridge_before_latest_user(const std::vector<Message>& messages,
                                           std::size_t compress_start, std::size_t compress_end);

}  // namespace hermes::internal
