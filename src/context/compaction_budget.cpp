#include "context/compaction_budget.hpp"

#include <algorithm>

namespace hermes::internal {
namespace {

constexpr int64_t kSmallWindowLimit = 512'000;
constexpr double kSmallWindowPercent = 0.75;
constexpr double kMinimumWindowTriggerRatio = 0.85;
constexpr int64_t kMinSummaryTokens = 2'000;
constexpr double kSummaryRatio = 0.20;

}  // namespace

double resolve_model_threshold(std::string_view model,
                               const std::vector<std::pair<std::string, double>>& overrides,
                               double fallback) {
  const std::string* best = nullptr;
  double value = fallback;
  for (const auto& [key, percent] : overrides) {
    if (key.empty() || model.find(key) == std::string_view::npos) continue;
    if (best == nullptr || key.size() > best->size()) {
      best = &key;
      value = percent;
    }
  }
  return value;
}

double effective_threshold_percent(int64_t context_length, double percent,
                                   bool small_window_floor) {
  if (small_window_floor && context_length > 0 && context_length < kSmallWindowLimit) {
    return std::max(percent, kSmallWindowPercent);
  }
  return percent;
}

int64_t compute_threshold_tokens(int64_t context_length, double percent,
                                 std::optional<int64_t> max_tokens, std::optional<int64_t> cap) {
  int64_t window = context_length - std::max<int64_t>(max_tokens.value_or(0), 0);
  if (window <= 0) window = context_length;
  const auto by_percent = static_cast<int64_t>(static_cast<double>(window) * percent);
  int64_t threshold = std::max(by_percent, kMinimumContextLength);
  if (window > 0 && threshold >= window) {
    // The floor would make the threshold unreachable on a small window.
    const auto near_top =
        static_cast<int64_t>(static_cast<double>(window) * kMinimumWindowTriggerRatio);
    threshold = std::max<int64_t>(1, std::min(near_top, window - 1));
  }
  if (cap && *cap > 0) threshold = std::min(threshold, std::min(*cap, context_length));
  return threshold;
}

int64_t compute_tail_token_budget(TailBudgetMode mode, int64_t threshold_tokens,
                                  double summary_target_ratio, int64_t context_length) {
  if (mode == TailBudgetMode::kLean) {
    const auto share = static_cast<int64_t>(static_cast<double>(context_length) * 0.025);
    return std::max<int64_t>(10'000, std::min<int64_t>(25'000, share));
  }
  return static_cast<int64_t>(static_cast<double>(threshold_tokens) * summary_target_ratio);
}

int64_t compute_max_summary_tokens(int64_t context_length, int64_t ceiling) {
  return std::min(static_cast<int64_t>(static_cast<double>(context_length) * 0.05), ceiling);
}

int64_t compute_summary_budget(int64_t content_tokens, int64_t max_summary_tokens) {
  const auto share = static_cast<int64_t>(static_cast<double>(content_tokens) * kSummaryRatio);
  return std::max(kMinSummaryTokens, std::min(share, max_summary_tokens));
}

double clamp_summary_target_ratio(double ratio) {
  return std::clamp(ratio, 0.10, 0.80);
}

}  // namespace hermes::internal
