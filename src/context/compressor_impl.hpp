// The state behind ContextCompressor, shared by the files that implement it: the
// configuration and its derived limits (compressor.cpp), the guards and usage tracking
// (compressor_guards.cpp) and the compaction pipeline (compressor_pipeline.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context/compaction_boundaries.hpp"
#include "context/summary_call.hpp"
#include "hermes/context_compressor.hpp"

namespace hermes {

class ContextCompressor::Impl {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Impl(ContextCompressorOptions options);

  // --- Configuration (compressor.cpp) ---
  void recompute_limits();
  Clock::time_point now() const;
  void notify(std::string_view kind, const std::string& message) const;

  // --- Guards and usage (compressor_guards.cpp) ---
  void update_from_response(const Usage& usage);
  CompressDecision decide(std::optional<int64_t> prompt_tokens) const;
  bool defer_preflight(int64_t rough_tokens);
  std::string blocked_reason() const;
  int64_t cooldown_seconds_left() const;
  void clear_guards();
  void reset_session_state();
  void record_ineffective(const std::string& why);
  void record_effectiveness(double savings_percent);
  void record_summary_failure(internal::SummaryFailure failure, const std::string& error);
  void record_summary_success();

  // --- The pipeline (compressor_pipeline.cpp) ---
  Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                        const CompressOptions& options);
  std::optional<std::vector<Message>> prune_only(const std::vector<Message>& messages) const;
  bool has_content(const std::vector<Message>& messages) const;
  int effective_protect_first_n(const std::vector<Message>& messages) const;
  internal::BoundarySettings boundary_settings() const;
  // The summary body of `turns`, a static one when the summariser fails, or the error that
  // must leave the transcript unchanged.
  Result<std::string> summarize(const std::vector<Message>& turns, bool has_user_turn,
                                const std::vector<Message>& messages, const CompressOptions& opts);
  std::string summary_prompt(const std::vector<Message>& turns, bool has_user_turn,
                             const std::vector<Message>& messages,
                             const CompressOptions& opts) const;
  // Takes up the summaries `found` in the transcript as the state of the iterative update.
  void adopt_previous_summary(const std::vector<std::string>& found);
  void record_compaction(const std::vector<Message>& out, std::size_t summarized);
  // The bookkeeping of a compaction that only shortened tool output.
  void record_shortening(const std::vector<Message>& out);
  // The size the compacted transcript must come down to (see CompressOptions::overflow).
  int64_t size_target(int64_t tokens_before, const CompressOptions& opts) const;
  // `msgs` with oversized tool results shortened to `target`; an ineffective compaction
  // (`why`) when there are none.
  std::vector<Message> shorten_only(std::vector<Message> msgs, int64_t target,
                                    const std::string& why);
  // After `failure`: the error that keeps the transcript unchanged, or a static summary.
  Result<std::string> without_summariser(const std::vector<Message>& turns,
                                         std::size_t transcript_size,
                                         internal::SummaryFailure failure,
                                         const std::string& error);

  ContextCompressorOptions options;

  // Derived limits.
  double threshold_percent = 0.5;
  int64_t threshold_tokens = 0;
  int64_t tail_token_budget = 0;
  int64_t max_summary_tokens = 0;

  // Usage. last_prompt_tokens is −1 right after a compaction ("unknown, do not trust the
  // old number") and 0 when no usage was reported.
  int64_t last_prompt_tokens = 0;
  int64_t last_completion_tokens = 0;
  int64_t last_real_prompt_tokens = 0;
  int64_t last_compression_rough_tokens = 0;
  int64_t last_rough_tokens_when_fit = 0;
  bool awaiting_real_usage = false;
  bool verdict_pending = false;  // IneffectiveVerdict::kRealUsage: judge the next usage.

  // Guards.
  int ineffective_count = 0;
  int static_summary_streak = 0;
  int consecutive_timeouts = 0;
  Clock::time_point cooldown_until{};
  internal::SummaryFailure last_failure = internal::SummaryFailure::kNone;
  std::string last_error;

  // Summaries.
  std::string previous_summary;
  int compression_count = 0;
  CompressionReport report;
};

}  // namespace hermes
