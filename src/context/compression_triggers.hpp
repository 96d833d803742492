// Decisions the turn loop takes around compaction (when to try it, whether another pass
// is worth it, what to do with a context-overflow error), as pure functions so the loop
// stays readable and the rules stay tested.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace hermes::internal {

// The most compaction passes or attempts per turn, at turn start and on overflow errors.
inline constexpr int kMaxCompressionAttempts = 3;

// Turn start: whether to estimate the request at all. True when there are more messages
// than the protected head and tail hold, or the rough size is already over the threshold
// (one huge message in a short conversation).
bool preflight_worth_checking(std::size_t message_count, int protect_first_n, int protect_last_n,
                              int64_t rough_tokens, int64_t threshold_tokens);

// The size of one pass's input and output.
struct PassMeasure {
  std::size_t messages = 0;
  int64_t tokens = 0;
};

// Whether a compaction pass achieved anything: fewer messages, or tokens under 95% of
// what they were.
bool compression_pass_made_progress(const PassMeasure& before, const PassMeasure& after);

// Turn start: whether to run another pass after `passes_done`. Only while the estimate is
// still at or over the threshold, at most kMaxCompressionAttempts passes, and only when
// the last pass removed messages or cut at least 5% of the tokens (a pass that does
// neither would repeat forever).
bool should_run_another_preflight_pass(int passes_done, const PassMeasure& before,
                                       const PassMeasure& after, int64_t threshold_tokens);

// After a tool round: the prompt size to judge. The provider's reported prompt when there
// is one; 0 right after a compaction (the −1 sentinel: the next response will say);
// otherwise the rough estimate. Completion tokens are never added: they are already part
// of the next prompt, and reasoning models inflate them.
int64_t post_tool_prompt_tokens(int64_t last_prompt_tokens, int64_t rough_estimate);

// The opt-in idle trigger: after `idle_seconds` of quiet (more than `idle_after_seconds`,
// 0 = off) compact when the estimate exceeds max(floor, last_compaction_tokens + floor),
// floor = threshold × summary_target_ratio. The provider's cache has expired by then, so
// compacting costs no cache.
bool should_compact_after_idle(double idle_seconds, double idle_after_seconds, int64_t rough_tokens,
                               int64_t threshold_tokens, double summary_target_ratio,
                               int64_t last_compaction_tokens);

// The context window to use after a context-overflow error. `stated_limit` is the window
// the provider's error names (parse_context_limit_from_error); it is used when below
// `current`. Without one, only when `step_down_without_limit` is set (older behaviour),
// the next probe tier below `current` (256K, 128K, 64K, 32K, 16K, 8K). nullopt: keep the
// window and just compress. The window is never raised.
std::optional<int64_t> context_length_after_overflow(int64_t current,
                                                     std::optional<int64_t> stated_limit,
                                                     bool step_down_without_limit = false);

// The next probe tier strictly below `current`, if any.
std::optional<int64_t> next_probe_tier(int64_t current);

}  // namespace hermes::internal
