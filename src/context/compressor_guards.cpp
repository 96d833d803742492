// The compressor's guards against thrashing and its usage bookkeeping: the threshold
// decision, summary-failure cooldowns, the ineffective-compaction strikes, and the
// "just compressed" sentinel that makes the next decision wait for real usage.
#include <algorithm>

#include "context/compressor_impl.hpp"

namespace hermes {
namespace {

constexpr int kStrikesToBlock = 2;
constexpr double kEffectiveSavingsPercent = 10.0;

}  // namespace

void ContextCompressor::Impl::update_from_response(const Usage& usage) {
  if (!usage.reported) {
    // Unknown, not zero: the caller falls back to a rough estimate.
    last_prompt_tokens = 0;
    last_completion_tokens = 0;
  } else {
    // Completion tokens are recorded, never judged: reasoning inflates them, and what stays
    // in context is already part of the next prompt.
    last_prompt_tokens = usage.input_tokens;
    last_completion_tokens = usage.output_tokens;
  }
  if (last_prompt_tokens > 0) {
    last_real_prompt_tokens = last_prompt_tokens;
    const bool fits = last_prompt_tokens < threshold_tokens;
    if (fits && awaiting_real_usage && last_compression_rough_tokens > 0) {
      last_rough_tokens_when_fit = last_compression_rough_tokens;
    } else if (!fits) {
      last_rough_tokens_when_fit = 0;
    }
    if (options.ineffective_verdict == IneffectiveVerdict::kRealUsage) {
      // The one reading that tells whether the last compaction got under the threshold.
      if (fits) {
        ineffective_count = 0;
      } else if (verdict_pending) {
        record_ineffective("the prompt is still over the threshold after compaction (" +
                           std::to_string(last_prompt_tokens) +
                           " >= " + std::to_string(threshold_tokens) + " tokens)");
      }
    }
  }
  verdict_pending = false;
  awaiting_real_usage = false;
}

int64_t ContextCompressor::Impl::cooldown_seconds_left() const {
  const auto left = cooldown_until - now();
  if (left <= Clock::duration::zero()) return 0;
  // Round up: a cooldown with 0.4 s left is still on.
  return std::chrono::ceil<std::chrono::seconds>(left).count();
}

std::string ContextCompressor::Impl::blocked_reason() const {
  if (const int64_t left = cooldown_seconds_left(); left > 0)
    return "cooldown:" + std::to_string(left);
  if (ineffective_count >= kStrikesToBlock || static_summary_streak >= kStrikesToBlock) {
    return "ineffective";
  }
  return "";
}

CompressDecision ContextCompressor::Impl::decide(std::optional<int64_t> prompt_tokens) const {
  int64_t tokens = prompt_tokens.value_or(last_prompt_tokens);
  if (tokens < 0) tokens = 0;  // The "just compressed" sentinel: nothing known yet.
  if (tokens < threshold_tokens) return {};
  std::string reason = blocked_reason();
  if (!reason.empty()) return CompressDecision{false, std::move(reason)};
  return CompressDecision{true, {}};
}

bool ContextCompressor::Impl::defer_preflight(int64_t rough_tokens) {
  if (rough_tokens < threshold_tokens) return false;
  // Right after a compaction the last real reading is the stale, pre-compaction one.
  if (awaiting_real_usage) return true;
  if (last_real_prompt_tokens <= 0 || last_real_prompt_tokens >= threshold_tokens) return false;
  const int64_t baseline =
      last_rough_tokens_when_fit > 0 ? last_rough_tokens_when_fit : last_compression_rough_tokens;
  if (baseline <= 0) return false;
  // Rough estimates overcount schema-heavy requests; while the estimate has grown only a
  // little since the provider said the prompt fit, trust the provider.
  const int64_t tolerated = std::max<int64_t>(4'096, threshold_tokens / 20);
  if (rough_tokens - baseline > tolerated) return false;
  last_rough_tokens_when_fit = std::max(baseline, rough_tokens);
  return true;
}

void ContextCompressor::Impl::clear_guards() {
  ineffective_count = 0;
  static_summary_streak = 0;
  consecutive_timeouts = 0;
  cooldown_until = {};
  last_failure = internal::SummaryFailure::kNone;
  last_error.clear();
}

void ContextCompressor::Impl::reset_session_state() {
  clear_guards();
  previous_summary.clear();
  compression_count = 0;
  last_prompt_tokens = 0;
  last_completion_tokens = 0;
  last_real_prompt_tokens = 0;
  last_compression_rough_tokens = 0;
  last_rough_tokens_when_fit = 0;
  awaiting_real_usage = false;
  verdict_pending = false;
  report = {};
}

void ContextCompressor::Impl::record_ineffective(const std::string& why) {
  ++ineffective_count;
  if (ineffective_count == kStrikesToBlock) {
    notify("compression_ineffective",
           why + "; automatic compaction is paused after two ineffective passes.");
  }
}

void ContextCompressor::Impl::record_effectiveness(double savings_percent) {
  if (options.ineffective_verdict == IneffectiveVerdict::kRealUsage) {
    verdict_pending = true;
    return;
  }
  if (savings_percent >= kEffectiveSavingsPercent) {
    ineffective_count = 0;
    return;
  }
  record_ineffective("the compaction saved only " +
                     std::to_string(static_cast<int>(savings_percent)) + "% of the transcript");
}

void ContextCompressor::Impl::record_summary_failure(internal::SummaryFailure failure,
                                                     const std::string& error) {
  using internal::SummaryFailure;
  // Timeouts escalate until a summary succeeds: a region the summariser cannot finish in
  // time fails the same way every time.
  if (failure == SummaryFailure::kTimeout) ++consecutive_timeouts;
  cooldown_until = now() + internal::summary_cooldown(failure, consecutive_timeouts);
  last_failure = failure;
  last_error = error;
}

void ContextCompressor::Impl::record_summary_success() {
  consecutive_timeouts = 0;
  cooldown_until = {};
  last_failure = internal::SummaryFailure::kNone;
  last_error.clear();
}

}  // namespace hermes
