// The compressor's size formulas: when to compress, how much recent context to keep, how
// long a summary may be. Pure functions of the configuration, so they are table-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/context_compressor.hpp"

namespace hermes::internal {

// Hermes needs this much room for its system prompt and tool schemas; thresholds never
// go below it (unless the window itself is that small).
inline constexpr int64_t kMinimumContextLength = 64'000;

// The percent for `model`: the value of the longest key contained in the model name, else
// `fallback`.
double resolve_model_threshold(std::string_view model,
                               const std::vector<std::pair<std::string, double>>& overrides,
                               double fallback);

// `percent` raised to at least 0.75 for windows under 512,000 tokens when the floor is on:
// at 50% of a small window compaction would fire almost every turn.
double effective_threshold_percent(int64_t context_length, double percent, bool small_window_floor);

// max(int((window − max_tokens) × percent), 64,000). When that floor reaches the usable
// window the threshold becomes min(int(0.85 × window), window − 1), so compaction can still
// trigger before the provider refuses. The optional cap (bounded by the window) comes last.
int64_t compute_threshold_tokens(int64_t context_length, double percent,
                                 std::optional<int64_t> max_tokens,
                                 std::optional<int64_t> cap = std::nullopt);

// The token budget of the protected tail.
int64_t compute_tail_token_budget(TailBudgetMode mode, int64_t threshold_tokens,
                                  double summary_target_ratio, int64_t context_length);

// min(int(window × 0.05), ceiling).
int64_t compute_max_summary_tokens(int64_t context_length, int64_t ceiling);

// max(2,000, min(int(content_tokens × 0.20), max_summary_tokens)): the "Target ~N tokens"
// of one summary of `content_tokens` worth of turns.
int64_t compute_summary_budget(int64_t content_tokens, int64_t max_summary_tokens);

// summary_target_ratio clamped to [0.10, 0.80].
double clamp_summary_target_ratio(double ratio);

}  // namespace hermes::internal
