// ContextCompressor: configuration, derived limits, and the public surface delegating to
// the guards (compressor_guards.cpp) and the pipeline (compressor_pipeline.cpp).
#include <exception>

#include "context/compaction_budget.hpp"
#include "context/compressor_impl.hpp"
#include "context/summary_markers.hpp"
#include "context/tool_result_pruning.hpp"
#include "hermes/context_compressor.hpp"
#include "safety/log.hpp"

namespace hermes {
namespace {

Status validate(const ContextCompressorOptions& o) {
  auto bad = [](const char* field, const char* what) {
    return Status::invalid_argument(std::string(field) + ": " + what);
  };
  if (o.context_length <= 0) return bad("context_length", "must be > 0");
  if (!(o.threshold_percent > 0 && o.threshold_percent <= 1)) {
    return bad("threshold_percent", "must be in (0, 1]");
  }
  for (const auto& [key, percent] : o.model_thresholds) {
    if (key.empty()) return bad("model_thresholds", "keys must not be empty");
    if (!(percent > 0 && percent <= 1))
      return bad("model_thresholds", "percents must be in (0, 1]");
  }
  if (o.max_tokens && *o.max_tokens < 0) return bad("max_tokens", "must be >= 0");
  if (o.threshold_tokens_cap && *o.threshold_tokens_cap <= 0) {
    return bad("threshold_tokens_cap", "must be > 0");
  }
  if (o.protect_first_n < 0) return bad("protect_first_n", "must be >= 0");
  if (o.protect_last_n < 0) return bad("protect_last_n", "must be >= 0");
  if (o.min_tail_user_messages < 0) return bad("min_tail_user_messages", "must be >= 0");
  if (!(o.summary_target_ratio > 0)) return bad("summary_target_ratio", "must be > 0");
  if (o.summary_tokens_ceiling <= 0) return bad("summary_tokens_ceiling", "must be > 0");
  if (o.prune_min_result_chars < 0) return bad("prune_min_result_chars", "must be >= 0");
  if (o.prune_min_reclaim_tokens < 0) return bad("prune_min_reclaim_tokens", "must be >= 0");
  return {};
}

}  // namespace

bool is_context_summary(const Message& message) {
  return internal::is_summary_message(message);
}

ContextCompressor::Impl::Impl(ContextCompressorOptions o) : options(std::move(o)) {
  options.summary_target_ratio = internal::clamp_summary_target_ratio(options.summary_target_ratio);
  if (options.max_tokens && *options.max_tokens == 0) options.max_tokens.reset();
  recompute_limits();
}

void ContextCompressor::Impl::recompute_limits() {
  using namespace internal;
  const double base =
      resolve_model_threshold(options.model, options.model_thresholds, options.threshold_percent);
  threshold_percent =
      effective_threshold_percent(options.context_length, base, options.small_window_floor);
  threshold_tokens = compute_threshold_tokens(options.context_length, threshold_percent,
                                              options.max_tokens, options.threshold_tokens_cap);
  tail_token_budget = compute_tail_token_budget(
      options.tail_mode, threshold_tokens, options.summary_target_ratio, options.context_length);
  max_summary_tokens =
      compute_max_summary_tokens(options.context_length, options.summary_tokens_ceiling);
}

ContextCompressor::Impl::Clock::time_point ContextCompressor::Impl::now() const {
  return options.clock ? options.clock() : Clock::now();
}

void ContextCompressor::Impl::notify(std::string_view kind, const std::string& message) const {
  HERMES_LOG_WARN("context compressor: {}", message);
  if (!options.on_status) return;
  try {
    options.on_status(kind, message);
  } catch (...) {
    // A status hook must not break a compaction.
  }
}

Result<std::unique_ptr<ContextCompressor>> ContextCompressor::create(
    ContextCompressorOptions options) {
  if (Status s = validate(options); !s.ok()) return s;
  auto impl = std::make_unique<Impl>(std::move(options));
  return std::unique_ptr<ContextCompressor>(new ContextCompressor(std::move(impl)));
}

ContextCompressor::ContextCompressor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ContextCompressor::~ContextCompressor() = default;

void ContextCompressor::update_from_response(const Usage& usage) {
  impl_->update_from_response(usage);
}

bool ContextCompressor::should_compress(std::optional<int64_t> prompt_tokens) {
  return impl_->decide(prompt_tokens).compress;
}

CompressDecision ContextCompressor::should_compress_info(std::optional<int64_t> prompt_tokens) {
  return impl_->decide(prompt_tokens);
}

bool ContextCompressor::should_defer_preflight_to_real_usage(int64_t rough_tokens) {
  return impl_->defer_preflight(rough_tokens);
}

Result<std::vector<Message>> ContextCompressor::compress(const std::vector<Message>& messages,
                                                         const CompressOptions& options) {
  try {
    return impl_->compress(messages, options);
  } catch (const std::exception& e) {
    return Status::internal(std::string("context compression failed: ") + e.what());
  } catch (...) {
    // A throwing hook (redaction, status) must not escape the engine.
    return Status::internal("context compression failed: unknown exception");
  }
}

int64_t ContextCompressor::context_length() const {
  return impl_->options.context_length;
}
int64_t ContextCompressor::threshold_tokens() const {
  return impl_->threshold_tokens;
}

std::optional<std::vector<Message>> ContextCompressor::prune_tool_results_only(
    const std::vector<Message>& messages) {
  try {
    return impl_->prune_only(messages);
  } catch (...) {
    return std::nullopt;
  }
}

bool ContextCompressor::has_content_to_compress(const std::vector<Message>& messages) {
  return impl_->has_content(messages);
}

void ContextCompressor::on_session_start(const std::string& /*session_id*/,
                                         std::string_view boundary_reason) {
  // A compaction continues the same conversation: its summary and strikes carry over.
  if (boundary_reason != "compression") impl_->clear_guards();
}

void ContextCompressor::on_session_end(const std::string& /*session_id*/,
                                       const std::vector<Message>& /*messages*/) {
  impl_->reset_session_state();
}

void ContextCompressor::on_session_reset() {
  impl_->reset_session_state();
}

void ContextCompressor::update_model(const std::string& model, int64_t context_length) {
  Impl& s = *impl_;
  const bool model_changed = model != s.options.model;
  s.options.model = model;
  if (context_length > 0) s.options.context_length = context_length;
  s.recompute_limits();
  // Readings and strikes were judged against the previous model's limits.
  s.last_prompt_tokens = 0;
  s.last_completion_tokens = 0;
  s.last_real_prompt_tokens = 0;
  s.last_rough_tokens_when_fit = 0;
  s.last_compression_rough_tokens = 0;
  s.awaiting_real_usage = false;
  s.verdict_pending = false;
  s.ineffective_count = 0;
  if (model_changed) {
    // Cooldowns belong to the model that failed; the new one deserves an attempt.
    s.static_summary_streak = 0;
    s.cooldown_until = {};
    s.consecutive_timeouts = 0;
    s.last_failure = internal::SummaryFailure::kNone;
  }
}

std::string ContextCompressor::system_prompt_note() const {
  return impl_->compression_count > 0 ? std::string(kCompactionSystemNote) : std::string();
}

Json ContextCompressor::status() const {
  const Impl& s = *impl_;
  return Json{{"engine", "compressor"},
              {"model", s.options.model},
              {"context_length", s.options.context_length},
              {"threshold_tokens", s.threshold_tokens},
              {"threshold_percent", s.threshold_percent},
              {"tail_token_budget", s.tail_token_budget},
              {"max_summary_tokens", s.max_summary_tokens},
              {"last_prompt_tokens", s.last_prompt_tokens},
              {"last_completion_tokens", s.last_completion_tokens},
              {"compression_count", s.compression_count},
              {"ineffective_compressions", s.ineffective_count},
              {"static_summary_streak", s.static_summary_streak},
              {"cooldown_seconds", s.cooldown_seconds_left()},
              {"blocked_reason", s.blocked_reason()},
              {"last_summary_error", s.last_error},
              {"awaiting_real_usage", s.awaiting_real_usage}};
}

double ContextCompressor::threshold_percent() const {
  return impl_->threshold_percent;
}
int64_t ContextCompressor::tail_token_budget() const {
  return impl_->tail_token_budget;
}
int64_t ContextCompressor::max_summary_tokens() const {
  return impl_->max_summary_tokens;
}
int ContextCompressor::compression_count() const {
  return impl_->compression_count;
}
int64_t ContextCompressor::last_prompt_tokens() const {
  return impl_->last_prompt_tokens;
}
const std::string& ContextCompressor::previous_summary() const {
  return impl_->previous_summary;
}
const CompressionReport& ContextCompressor::last_report() const {
  return impl_->report;
}

std::size_t ContextCompressor::find_tail_cut_by_tokens(const std::vector<Message>& messages,
                                                       std::size_t head_end,
                                                       std::optional<int64_t> token_budget) const {
  if (head_end >= messages.size()) return messages.size();
  internal::BoundarySettings settings = impl_->boundary_settings();
  if (token_budget) settings.tail_token_budget = std::max<int64_t>(0, *token_budget);
  return internal::find_tail_cut(messages, head_end, settings);
}

ContextCompressor::PrunedMessages ContextCompressor::prune_old_tool_results(
    const std::vector<Message>& messages, int protect_tail_count,
    std::optional<int64_t> protect_tail_tokens) const {
  internal::PruneResult pruned = internal::prune_old_tool_results(
      messages, internal::PruneSettings{std::max(0, protect_tail_count), protect_tail_tokens, 200});
  return PrunedMessages{std::move(pruned.messages), pruned.pruned};
}

std::string ContextCompressor::truncate_tool_call_args_json(std::string_view arguments,
                                                            std::size_t head_chars) {
  return internal::shrink_tool_call_arguments(arguments, head_chars);
}

}  // namespace hermes
