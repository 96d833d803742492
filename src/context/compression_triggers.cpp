#include "context/compression_triggers.hpp"

#include <algorithm>
#include <array>

namespace hermes::internal {
namespace {

constexpr std::array<int64_t, 6> kProbeTiers = {256'000, 128'000, 64'000, 32'000, 16'000, 8'000};

}  // namespace

bool preflight_worth_checking(std::size_t message_count, int protect_first_n, int protect_last_n,
                              int64_t rough_tokens, int64_t threshold_tokens) {
  const auto protected_count =
      static_cast<std::size_t>(std::max(protect_first_n, 0) + std::max(protect_last_n, 0)) + 1;
  return message_count > protected_count || rough_tokens >= threshold_tokens;
}

bool compression_pass_made_progress(const PassMeasure& before, const PassMeasure& after) {
  if (after.messages < before.messages) return true;
  return static_cast<double>(after.tokens) < 0.95 * static_cast<double>(before.tokens);
}

bool should_run_another_preflight_pass(int passes_done, const PassMeasure& before,
                                       const PassMeasure& after, int64_t threshold_tokens) {
  if (passes_done >= kMaxCompressionAttempts) return false;
  if (after.tokens < threshold_tokens) return false;
  return compression_pass_made_progress(before, after);
}

int64_t post_tool_prompt_tokens(int64_t last_prompt_tokens, int64_t rough_estimate) {
  if (last_prompt_tokens > 0) return last_prompt_tokens;
  if (last_prompt_tokens < 0) return 0;
  return rough_estimate;
}

bool should_compact_after_idle(double idle_seconds, double idle_after_seconds, int64_t rough_tokens,
                               int64_t threshold_tokens, double summary_target_ratio,
                               int64_t last_compaction_tokens) {
  if (idle_after_seconds <= 0 || idle_seconds <= idle_after_seconds) return false;
  const auto floor =
      static_cast<int64_t>(static_cast<double>(threshold_tokens) * summary_target_ratio);
  return rough_tokens > std::max(floor, last_compaction_tokens + floor);
}

std::optional<int64_t> next_probe_tier(int64_t current) {
  for (int64_t tier : kProbeTiers) {
    if (tier < current) return tier;
  }
  return std::nullopt;
}

std::optional<int64_t> context_length_after_overflow(int64_t current,
                                                     std::optional<int64_t> stated_limit,
                                                     bool step_down_without_limit) {
  // Only ever lower the window, and only on the provider's word unless asked to guess.
  if (stated_limit) {
    if (*stated_limit > 0 && *stated_limit < current) return stated_limit;
    return std::nullopt;
  }
  if (step_down_without_limit) return next_probe_tier(current);
  return std::nullopt;
}

}  // namespace hermes::internal
