#include "context/compaction_boundaries.hpp"

#include <algorithm>

#include "common/text_utils.hpp"
#include "context/message_budget.hpp"
#include "context/summary_markers.hpp"

namespace hermes::internal {
namespace {

constexpr double kTailSoftCeiling = 1.5;

bool is_tool_group_head(const Message& m) {
  return m.role == Role::kAssistant && !m.tool_calls.empty();
}

// The minimum number of tail messages for this transcript.
std::size_t minimum_tail(std::size_t n, std::size_t head_end, int protect_last_n) {
  const std::size_t available = n > head_end + 1 ? n - head_end - 1 : 0;
  if (available <= 1) return 0;
  const std::size_t wanted = static_cast<std::size_t>(std::max(protect_last_n, 0));
  const std::size_t floor = std::max<std::size_t>(3, std::min(wanted, kTailMessageFloorCap));
  // Leave at least two messages to summarise on short transcripts, or a pass saves nothing.
  const std::size_t compressible_cap = std::max<std::size_t>(3, available > 2 ? available - 2 : 0);
  return std::min({floor, compressible_cap, available});
}

// Walks back from the end while the tail stays within `budget`; returns the tail start and
// the tokens it holds.
std::size_t walk_tail(const std::vector<Message>& messages, std::size_t head_end, int64_t budget,
                      std::size_t min_tail, int64_t& accumulated) {
  const std::size_t n = messages.size();
  accumulated = 0;
  std::size_t cut = n;
  for (std::size_t i = n; i-- > head_end;) {
    const int64_t cost = estimate_message_budget_tokens(messages[i]);
    if (accumulated + cost > budget && n - i >= min_tail) break;
    accumulated += cost;
    cut = i;
  }
  return cut;
}

// The end of the turn a user message opens: its assistant reply and that reply's results.
std::size_t turn_pair_end(const std::vector<Message>& messages, std::size_t user_idx) {
  std::size_t idx = user_idx + 1;
  if (idx >= messages.size() || messages[idx].role != Role::kAssistant) return idx;
  ++idx;
  while (idx < messages.size() && messages[idx].role == Role::kTool) ++idx;
  return idx;
}

std::size_t keep_latest_user(const std::vector<Message>& messages, std::size_t cut,
                             std::size_t head_end) {
  const auto user = last_real_user_index(messages, head_end);
  if (!user || *user >= cut) return cut;
  if (*user > head_end) return *user;
  // The user sits right at the head, where the tail cannot start: summarise its whole turn
  // instead of leaving the ask in the summary without its answer.
  return std::max(turn_pair_end(messages, *user), head_end + 1);
}

std::optional<std::size_t> last_assistant_reply(const std::vector<Message>& messages,
                                                std::size_t from) {
  std::optional<std::size_t> any;
  for (std::size_t i = messages.size(); i-- > from;) {
    const Message& m = messages[i];
    if (m.role != Role::kAssistant || is_summary_message(m)) continue;
    if (!any) any = i;
    if (!is_blank(m.content)) return i;
  }
  return any;
}

std::size_t keep_latest_reply(const std::vector<Message>& messages, std::size_t cut,
                              std::size_t head_end) {
  // The reply a person just read must not vanish into the summary block.
  const auto reply = last_assistant_reply(messages, head_end);
  if (!reply || *reply >= cut) return cut;
  return std::max(align_boundary_backward(messages, *reply), head_end + 1);
}

std::size_t keep_recent_users(const std::vector<Message>& messages, std::size_t cut,
                              std::size_t head_end, int count) {
  std::optional<std::size_t> target;
  int found = 0;
  for (std::size_t i = messages.size(); i-- > head_end && found < count;) {
    if (!is_real_user_turn(messages[i])) continue;
    target = i;
    ++found;
  }
  if (!target || *target >= cut) return cut;
  return std::max(*target, head_end + 1);
}

}  // namespace

std::size_t protected_head_size(const std::vector<Message>& messages, int protect_first_n) {
  std::size_t head = !messages.empty() && messages[0].role == Role::kSystem ? 1 : 0;
  head += static_cast<std::size_t>(std::max(protect_first_n, 0));
  return std::min(head, messages.size());
}

std::size_t align_boundary_forward(const std::vector<Message>& messages, std::size_t idx) {
  while (idx < messages.size() && messages[idx].role == Role::kTool) ++idx;
  return idx;
}

std::size_t align_boundary_backward(const std::vector<Message>& messages, std::size_t idx) {
  if (idx == 0 || idx >= messages.size()) return idx;
  std::size_t check = idx;
  while (check > 0 && messages[check - 1].role == Role::kTool) --check;
  if (check > 0 && is_tool_group_head(messages[check - 1])) return check - 1;
  return idx;
}

std::optional<std::size_t> last_real_user_index(const std::vector<Message>& messages,
                                                std::size_t from) {
  for (std::size_t i = messages.size(); i-- > from;) {
    if (is_real_user_turn(messages[i])) return i;
  }
  return std::nullopt;
}

std::size_t find_tail_cut(const std::vector<Message>& messages, std::size_t head_end,
                          const BoundarySettings& settings) {
  const std::size_t n = messages.size();
  const std::size_t min_tail = minimum_tail(n, head_end, settings.protect_last_n);
  const int64_t budget = std::max<int64_t>(settings.tail_token_budget, 0);
  const auto soft = static_cast<int64_t>(static_cast<double>(budget) * kTailSoftCeiling);

  int64_t accumulated = 0;
  std::size_t cut = walk_tail(messages, head_end, soft, min_tail, accumulated);
  if (cut <= head_end && accumulated > 0) {
    // Everything fits under the soft ceiling; split at the plain budget instead, so the
    // pass has something worth summarising rather than looping on a no-op.
    cut = walk_tail(messages, head_end, budget, min_tail, accumulated);
  }
  const std::size_t fallback = n - min_tail;
  cut = std::min(cut, fallback);
  if (cut <= head_end) cut = std::max(fallback, head_end + 1);

  cut = align_boundary_backward(messages, cut);
  cut = keep_latest_user(messages, cut, head_end);
  cut = keep_latest_reply(messages, cut, head_end);
  if (settings.min_tail_user_messages > 1) {
    cut = keep_recent_users(messages, cut, head_end, settings.min_tail_user_messages);
  }
  // Raising the cut to keep one message to summarise may land inside a tool group: move
  // forward past its results so the group is summarised whole.
  return align_boundary_forward(messages, std::max(cut, head_end + 1));
}

std::size_t keep_bridge_before_latest_user(const std::vector<Message>& messages,
                                           std::size_t compress_start, std::size_t compress_end) {
  const auto user = last_real_user_index(messages, 0);
  if (!user || *user != compress_end || compress_end == 0) return compress_end;
  std::size_t bridge = compress_end - 1;
  if (messages[bridge].role == Role::kTool) {
    bridge = align_boundary_backward(messages, compress_end);
    if (bridge == compress_end) return compress_end;
  } else if (messages[bridge].role != Role::kAssistant) {
    return compress_end;
  }
  return bridge > compress_start ? bridge : compress_end;
}

}  // namespace hermes::internal
