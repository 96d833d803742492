// The compaction pipeline: prune (phase 1), choose boundaries (phase 2), summarise the
// middle (phase 3) and reassemble (phase 4).
#include <ctime>

#include "context/compaction_assembly.hpp"
#include "context/compaction_boundaries.hpp"
#include "context/compaction_budget.hpp"
#include "context/compressor_impl.hpp"
#include "context/message_budget.hpp"
#include "context/oversized_tool_results.hpp"
#include "context/static_summary.hpp"
#include "context/summary_markers.hpp"
#include "context/summary_prompt.hpp"
#include "context/tool_result_pruning.hpp"
#include "hermes/token_estimate.hpp"

namespace hermes {

using namespace internal;

namespace {

constexpr int64_t kMinPruneChars = 200;
// How far past the head a summary left by an earlier compaction still counts as "the
// conversation was compacted before" after a restart.
constexpr std::size_t kHeadProbeExtra = 4;

// The transcript split around the region to summarise, with earlier summaries taken out:
// their bodies feed the iterative update instead of being summarised again.
struct Region {
  std::vector<Message> head;
  std::vector<Message> turns;
  std::vector<Message> tail;
  std::vector<std::string> summary_bodies;
  bool has_user_turn = false;
};

Region split_region(const std::vector<Message>& messages, std::size_t start, std::size_t end) {
  Region r;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    if (i >= end && is_summary_message(m) && !without_summary(m)) {
      // A standalone summary stays: taking it out of the tail would leave its neighbours
      // side by side. (A merged one gives back the message it was merged into, below.)
      r.tail.push_back(m);
      continue;
    }
    if (is_summary_message(m)) {
      if (std::string body = strip_summary_prefix(m.content); !body.empty()) {
        r.summary_bodies.push_back(std::move(body));
      }
    }
    if (is_real_user_turn(m)) r.has_user_turn = true;
    std::optional<Message> kept = without_summary(m);
    if (!kept) continue;
    (i < start ? r.head : i < end ? r.turns : r.tail).push_back(std::move(*kept));
  }
  if (!r.has_user_turn && !r.summary_bodies.empty()) {
    // A user turn compacted away earlier still counts, unless the summary says none existed.
    r.has_user_turn = true;
    for (const auto& body : r.summary_bodies) {
      if (body.find(kNoUserTaskSentinel) != std::string::npos) r.has_user_turn = false;
    }
  }
  return r;
}

// The tail start moved past the last summary an earlier compaction left in the tail, so
// the new summary takes it up (a summary kept in the tail would be summarised again next
// time, and its body would be in two places). Unchanged when the latest user message
// would leave the tail.
std::size_t past_earlier_summaries(const std::vector<Message>& messages, std::size_t end) {
  std::optional<std::size_t> last_summary;
  for (std::size_t i = end; i < messages.size(); ++i) {
    if (is_summary_message(messages[i])) last_summary = i;
  }
  if (!last_summary) return end;
  const std::size_t moved = align_boundary_forward(messages, *last_summary + 1);
  const auto latest_user = last_real_user_index(messages, 0);
  if (moved >= messages.size() || (latest_user && *latest_user < moved)) return end;
  return moved;
}

std::string local_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
#ifdef _WIN32
  if (localtime_s(&tm, &t) != 0) return "";
#else
  if (localtime_r(&t, &tm) == nullptr) return "";
#endif
  char buf[16];
  return std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm) > 0 ? std::string(buf) : "";
}

std::string redacted(const RedactionHook& redact, std::string_view text) {
  return redact ? redact(text) : std::string(text);
}

}  // namespace

// The head keeps the first messages only until the first compaction: afterwards they are
// in the summary, and protecting them again would make them immortal.
int ContextCompressor::Impl::effective_protect_first_n(const std::vector<Message>& messages) const {
  if (compression_count > 0 || !previous_summary.empty()) return 0;
  const std::size_t first = !messages.empty() && messages[0].role == Role::kSystem ? 1 : 0;
  const std::size_t probe_end = std::min(
      messages.size(), first + static_cast<std::size_t>(options.protect_first_n) + kHeadProbeExtra);
  for (std::size_t i = first; i < probe_end; ++i) {
    if (is_summary_message(messages[i])) return 0;  // Resumed after an earlier compaction.
  }
  return options.protect_first_n;
}

BoundarySettings ContextCompressor::Impl::boundary_settings() const {
  return BoundarySettings{options.protect_last_n, tail_token_budget,
                          options.min_tail_user_messages};
}

std::string ContextCompressor::Impl::summary_prompt(const std::vector<Message>& turns,
                                                    bool has_user_turn,
                                                    const std::vector<Message>& messages,
                                                    const CompressOptions& opts) const {
  const RedactionHook& redact = options.redact;
  std::string focus = redacted(redact, opts.focus_topic);
  if (focus.empty() && options.auto_focus_topic) focus = derive_auto_focus_topic(messages, redact);
  const std::string transcript = bound_summary_input(serialize_for_summary(turns, redact));
  const std::string previous = redacted(redact, previous_summary);
  const std::string memory = sanitize_memory_context(opts.memory_context);
  const std::string today = local_date();
  SummaryPromptInputs in;
  in.turns = transcript;
  in.previous_summary = previous;
  in.focus_topic = focus;
  in.memory_context = memory;
  in.budget_tokens =
      compute_summary_budget(estimate_messages_tokens_rough(turns), max_summary_tokens);
  in.has_user_turn = has_user_turn;
  in.today = today;
  return build_summary_prompt(in);
}

Result<std::string> ContextCompressor::Impl::summarize(const std::vector<Message>& turns,
                                                       bool has_user_turn,
                                                       const std::vector<Message>& messages,
                                                       const CompressOptions& opts) {
  if (const int64_t left = cooldown_seconds_left(); left > 0) {
    return without_summariser(
        turns, messages.size(), last_failure,
        "summaries are paused for " + std::to_string(left) + " s after: " + last_error);
  }
  const Summarizers models{options.summary_provider, options.summary_model, options.main_provider,
                           options.main_model};
  SummaryAnswer answer =
      request_summary(models, summary_prompt(turns, has_user_turn, messages, opts), options.redact);
  if (!answer.body) {
    record_summary_failure(answer.failure, answer.error);
    return without_summariser(turns, messages.size(), answer.failure, answer.error);
  }
  if (answer.used_main) {
    report.used_main_provider = true;
    notify("summary_model_fallback", "The summary model failed (" + answer.auxiliary_error +
                                         "); the main model wrote the summary instead.");
  }
  record_summary_success();
  static_summary_streak = 0;
  previous_summary = *answer.body;
  return std::move(*answer.body);
}

Result<std::string> ContextCompressor::Impl::without_summariser(const std::vector<Message>& turns,
                                                                std::size_t transcript_size,
                                                                SummaryFailure failure,
                                                                const std::string& error) {
  report.error = error;
  if (keeps_transcript_unchanged(failure) || options.abort_on_summary_failure) {
    const std::string cause = failure == SummaryFailure::kAccess    ? "access or quota failure"
                              : failure == SummaryFailure::kNetwork ? "network failure"
                                                                    : "summary failure";
    std::string message = "Compression aborted (" + cause + ": " + error + "). " +
                          std::to_string(transcript_size) +
                          " messages were preserved unchanged; the session was NOT rotated.";
    notify("compression_aborted", message);
    return Status::unavailable(std::move(message));
  }
  notify("static_summary", "The summary model failed (" + error + "); " +
                               std::to_string(turns.size()) +
                               " messages were replaced by a summary built without it.");
  ++static_summary_streak;
  report.used_static_summary = true;
  return build_static_summary(turns, previous_summary, error, options.redact);
}

// How large the compacted transcript may be: the threshold, and after a refusal for size
// at most half of what was refused, so that every retry is smaller than the last.
int64_t ContextCompressor::Impl::size_target(int64_t tokens_before,
                                             const CompressOptions& opts) const {
  if (!opts.overflow) return threshold_tokens;
  const int64_t refused = opts.current_tokens.value_or(tokens_before);
  return std::min(threshold_tokens, std::max<int64_t>(1, std::min(refused, tokens_before) / 2));
}

// Without a middle to summarise, oversized tool output is all that can still give.
std::vector<Message> ContextCompressor::Impl::shorten_only(std::vector<Message> msgs,
                                                           int64_t target, const std::string& why) {
  ShrinkResult shrunk = shrink_oversized_tool_results(std::move(msgs), target);
  if (shrunk.shortened == 0) {
    record_ineffective(why);
    return std::move(shrunk.messages);
  }
  report.shortened_tool_results = shrunk.shortened;
  record_shortening(shrunk.messages);
  return std::move(shrunk.messages);
}

Result<std::vector<Message>> ContextCompressor::Impl::compress(const std::vector<Message>& input,
                                                               const CompressOptions& opts) {
  report = CompressionReport{};
  report.messages_before = report.messages_after = input.size();
  report.tokens_before = report.tokens_after = estimate_messages_tokens_rough(input);
  if (opts.force) clear_guards();  // A manual /compress retries at once.
  const int64_t target = size_target(report.tokens_before, opts);

  const int first_n = effective_protect_first_n(input);
  if (input.size() <= protected_head_size(input, first_n) + 4) {
    return shorten_only(input, target,
                        "only " + std::to_string(input.size()) + " messages, too few to compress");
  }
  PruneResult pruned = internal::prune_old_tool_results(
      input, PruneSettings{options.protect_last_n, tail_token_budget, kMinPruneChars});
  std::vector<Message>& msgs = pruned.messages;
  report.pruned_tool_results = pruned.pruned;
  report.tokens_after = estimate_messages_tokens_rough(msgs);

  const std::size_t start = align_boundary_forward(msgs, protected_head_size(msgs, first_n));
  std::size_t end = start < msgs.size() ? find_tail_cut(msgs, start, boundary_settings()) : start;
  end = keep_bridge_before_latest_user(msgs, start, past_earlier_summaries(msgs, end));
  Region region;
  if (start < end && end < msgs.size()) region = split_region(msgs, start, end);
  if (region.turns.empty()) {
    return shorten_only(std::move(msgs), target,
                        "the transcript fits in the protected head and tail");
  }

  const std::string previous_before = previous_summary;
  adopt_previous_summary(region.summary_bodies);
  Result<std::string> body = summarize(region.turns, region.has_user_turn, msgs, opts);
  if (!body.ok()) {
    previous_summary = previous_before;
    report.aborted = true;
    return body.status();
  }

  const std::size_t summarized = region.turns.size();
  Assembly assembled = assemble_compacted(
      AssemblyParts{std::move(region.head), std::move(region.tail), with_summary_prefix(*body)});
  std::vector<Message> out = strip_historical_media(
      sanitize_tool_pairs(std::move(assembled.messages), options.missing_result_repair));
  // The protected tail may itself hold more tool output than the window takes.
  ShrinkResult shrunk = shrink_oversized_tool_results(std::move(out), target);
  report.shortened_tool_results = shrunk.shortened;
  record_compaction(shrunk.messages, summarized);
  return std::move(shrunk.messages);
}

void ContextCompressor::Impl::adopt_previous_summary(const std::vector<std::string>& found) {
  if (found.empty()) {
    previous_summary.clear();  // Left from another session: it must not leak into this one.
    return;
  }
  if (!previous_summary.empty()) return;
  // A resumed session: the summaries in the transcript are the state to update.
  for (const auto& body : found) {
    previous_summary += (previous_summary.empty() ? "" : "\n\n") + body;
  }
}

void ContextCompressor::Impl::record_shortening(const std::vector<Message>& out) {
  report.messages_after = out.size();
  report.tokens_after = estimate_messages_tokens_rough(out);
  report.savings_percent =
      report.tokens_before > 0
          ? 100.0 * static_cast<double>(report.tokens_before - report.tokens_after) /
                static_cast<double>(report.tokens_before)
          : 0.0;
  record_effectiveness(report.savings_percent);
  // Unknown until the provider reports on the shortened prompt.
  last_prompt_tokens = -1;
  awaiting_real_usage = true;
  last_compression_rough_tokens = report.tokens_after;
}

void ContextCompressor::Impl::record_compaction(const std::vector<Message>& out,
                                                std::size_t summarized) {
  ++compression_count;
  report.compacted = true;
  report.summarized_messages = summarized;
  record_shortening(out);
}

std::optional<std::vector<Message>> ContextCompressor::Impl::prune_only(
    const std::vector<Message>& messages) const {
  const std::size_t head = protected_head_size(messages, effective_protect_first_n(messages));
  if (messages.size() <= static_cast<std::size_t>(options.protect_last_n) + head + 1)
    return std::nullopt;
  const int64_t min_chars = std::max<int64_t>(kMinPruneChars, options.prune_min_result_chars);
  PruneResult pruned = internal::prune_old_tool_results(
      messages, PruneSettings{options.protect_last_n, std::nullopt, min_chars});
  if (pruned.pruned == 0) return std::nullopt;
  // Every applied prune rewrites history the provider has cached; make it worth it.
  const int64_t reclaimed =
      estimate_budget_tokens(messages) - estimate_budget_tokens(pruned.messages);
  if (reclaimed < options.prune_min_reclaim_tokens) return std::nullopt;
  return std::move(pruned.messages);
}

bool ContextCompressor::Impl::has_content(const std::vector<Message>& messages) const {
  const int first_n = effective_protect_first_n(messages);
  if (messages.size() <= protected_head_size(messages, first_n) + 4) return false;
  const std::size_t start =
      align_boundary_forward(messages, protected_head_size(messages, first_n));
  if (start >= messages.size()) return false;
  std::size_t end = find_tail_cut(messages, start, boundary_settings());
  end = keep_bridge_before_latest_user(messages, start, past_earlier_summaries(messages, end));
  return start < end && end < messages.size();
}

}  // namespace hermes
