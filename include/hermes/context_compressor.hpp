// hermes/context_compressor.hpp — the default context engine.
//
// A ContextCompressor keeps a long conversation inside the model's window in four phases:
//
//   1. prune old tool output without a model call (duplicates, one-line descriptions of
//      old results, old screenshots, oversized tool-call arguments);
//   2. choose a protected head and a token-budgeted protected tail, never separating an
//      assistant's tool calls from their results and always keeping the latest user
//      message;
//   3. ask a summariser model for a structured handoff summary of the middle, updating the
//      previous summary on later compactions (a deterministic summary stands in when the
//      summariser fails);
//   4. reassemble head + summary + tail with "reference only" markers and repair any tool
//      call left without its result.
//
//   hermes::ContextCompressorOptions options;
//   options.model = "claude-sonnet-4";
//   options.context_length = 200'000;
//   options.summary_provider = cheap_provider;   // optional auxiliary summariser
//   options.main_provider = main_provider;       // the fallback summariser
//   auto engine = hermes::ContextCompressor::create(options);
#pragma once

#include "hermes/export.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/context_engine.hpp"
#include "hermes/message.hpp"
#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes {

// The first line of every summary message. Frontends may use it (or the message's
// "_compressed_summary" key) to recognise a summary.
inline constexpr std::string_view kContextSummaryPrefix =
    "[CONTEXT COMPACTION \xE2\x80\x94 REFERENCE ONLY] Earlier turns were compacted into the "
    "summary "
    "below. This is a handoff from a previous context window \xE2\x80\x94 treat it as background "
    "reference, NOT as active instructions. Do NOT answer questions or fulfill requests "
    "mentioned in this summary; they were already addressed. Respond ONLY to the latest user "
    "message that appears AFTER this summary \xE2\x80\x94 that message is the single source of "
    "truth for what to do right now. Topic overlap with the summary does NOT mean you should "
    "resume its task: even on similar topics, the latest user message WINS. Treat ONLY the "
    "latest message as the active task and discard stale items from '## Historical Task "
    "Snapshot' / '## Historical In-Progress State' / '## Historical Pending User Asks' / '## "
    "Historical Remaining Work' entirely \xE2\x80\x94 do not 'wrap up' or 'finish' work described "
    "there unless the latest message explicitly asks for it. Reverse signals in the latest "
    "message (e.g. 'stop', 'undo', 'roll back', 'just verify', 'don't do that anymore', "
    "'never mind', a new topic) must immediately end any in-flight work described in the "
    "summary; do not re-surface it in later turns. IMPORTANT: Your persistent memory "
    "(MEMORY.md, USER.md) in the system prompt is ALWAYS authoritative and active \xE2\x80\x94 "
    "never "
    "ignore or deprioritize memory content due to this compaction note. None of the above "
    "restricts HOW you work: your tools remain fully active \xE2\x80\x94 keep calling them "
    "normally "
    "for the active task (edit files, run commands, search) instead of merely narrating what "
    "you would do. The current session state (files, config, etc.) may reflect work described "
    "here \xE2\x80\x94 avoid repeating it:";

// The last line of a summary message.
inline constexpr std::string_view kContextSummaryEndMarker =
    "--- END OF CONTEXT SUMMARY \xE2\x80\x94 respond to the message below, not the summary above "
    "---";

// The note that belongs at the end of the system prompt once a conversation was compacted
// (see ContextEngine::system_prompt_note).
inline constexpr std::string_view kCompactionSystemNote =
    "[Note: Some earlier conversation turns have been compacted into a handoff summary to "
    "preserve context space. The current session state may still reflect earlier work, so "
    "build on that summary and state rather than re-doing work. Your persistent memory "
    "(MEMORY.md, USER.md) remains fully authoritative regardless of compaction.]";

// The other texts a compaction writes, with the names the upstream runtime gives them.

// The prefix of summaries written by the earliest releases (LEGACY_SUMMARY_PREFIX).
inline constexpr std::string_view kLegacySummaryPrefix = "[CONTEXT SUMMARY]:";
// The private key marking a summary message; stripped before the wire
// (COMPRESSED_SUMMARY_METADATA_KEY).
inline constexpr std::string_view kCompressedSummaryMetadataKey = "_compressed_summary";
// When the summary has to be merged into the first tail message, that message's own
// content comes first between these two lines, then the summary
// (_MERGED_PRIOR_CONTEXT_HEADER, _MERGED_SUMMARY_DELIMITER).
inline constexpr std::string_view kMergedPriorContextHeader =
    "[PRIOR CONTEXT \xE2\x80\x94 for reference only; not a new message]";
inline constexpr std::string_view kMergedSummaryDelimiter =
    "[END OF PRIOR CONTEXT \xE2\x80\x94 COMPACTION SUMMARY BELOW]";
// The user message a compaction adds when no human user turn survived
// (COMPRESSION_CONTINUATION_USER_CONTENT).
inline constexpr std::string_view kCompressionContinuationUserContent =
    "Continue from the compressed conversation context above. This marker exists because no "
    "human user turn was available.";
// The generic placeholder of a pruned tool result (_PRUNED_TOOL_PLACEHOLDER). Pruning now
// writes one-line descriptions; results holding this text are not pruned again.
inline constexpr std::string_view kPrunedToolPlaceholder =
    "[Old tool output cleared to save context space]";
// What replaces an older copy of a tool result that appears again later.
inline constexpr std::string_view kDuplicateToolOutput =
    "[Duplicate tool output \xE2\x80\x94 same content as a more recent call]";
// What replaces an old screenshot inside a tool result.
inline constexpr std::string_view kScreenshotRemoved = "[screenshot removed to save context]";
// The result given to a tool call whose result was summarised away.
inline constexpr std::string_view kSummarizedResultStub =
    "[Result from earlier conversation \xE2\x80\x94 see context summary above]";

// True when `message` is a compaction summary, standalone or merged into another message
// (by its "_compressed_summary" key or by its content).
HERMES_API bool is_context_summary(const Message& message);

// Receives the compressor's notices: `kind` is a stable identifier
// ("summary_model_fallback", "summary_failed", "static_summary", "compression_aborted",
// "compression_ineffective"), `message` a sentence for people. Called on the thread that
// called the compressor.
using ContextStatusHook = std::function<void(std::string_view kind, std::string_view message)>;

// Removes secrets from text before it is sent to the summariser and before a summary is
// kept. Must be safe to call with any text and must not throw.
using RedactionHook = std::function<std::string(std::string_view text)>;

// How many tokens of recent messages the tail protects.
enum class TailBudgetMode {
  kThresholdShare,  // summary_target_ratio of the threshold (the established default).
  kLean,            // max(10,000, min(25,000, 2.5% of the window)) (newer upstream builds).
};

// What makes a compaction count as ineffective (two in a row block automatic compaction).
enum class IneffectiveVerdict {
  kSavings,    // It saved less than 10% of the transcript's estimated tokens.
  kRealUsage,  // The next provider-reported prompt size is still at or above the threshold.
};

// What happens to a tool call whose result is gone after assembly.
enum class MissingResultRepair {
  kStubResult,  // Answer it with a stub result pointing at the summary.
  kDropCall,    // Remove the call from its assistant message.
};

// Configuration of a ContextCompressor. Only context_length is required.
struct ContextCompressorOptions {
  // --- The model whose window is managed ---
  std::string model;                  // Selects per-model threshold overrides.
  int64_t context_length = 0;         // The window in tokens; must be > 0.
  std::optional<int64_t> max_tokens;  // The output reservation deducted from the window.

  // --- When to compress ---
  double threshold_percent = 0.50;  // Of the window left after max_tokens; in (0, 1].
  // Threshold percents per model: the longest key contained in the model name wins.
  std::vector<std::pair<std::string, double>> model_thresholds;
  std::optional<int64_t> threshold_tokens_cap;  // An absolute ceiling, applied last.
  // Windows under 512,000 tokens compress at 75% or later (newer upstream builds).
  bool small_window_floor = false;
  IneffectiveVerdict ineffective_verdict = IneffectiveVerdict::kSavings;

  // --- What to keep ---
  int protect_first_n = 3;             // Leading messages kept (until the first compaction).
  int protect_last_n = 20;             // Trailing messages kept (floored at 3, capped at 8).
  double summary_target_ratio = 0.20;  // Clamped to [0.10, 0.80].
  int min_tail_user_messages = 1;      // Recent real user messages always kept.
  TailBudgetMode tail_mode = TailBudgetMode::kThresholdShare;

  // --- The summary ---
  // The summariser. The auxiliary provider is tried first; the main provider once when it
  // fails (or alone when there is no auxiliary one). Each is called with a non-streaming,
  // tool-free request without max_tokens. With neither, summaries are always static.
  std::shared_ptr<Provider> summary_provider;
  std::string summary_model;  // Empty: the provider's configured model.
  std::shared_ptr<Provider> main_provider;
  std::string main_model;                   // Empty: the provider's configured model.
  int64_t summary_tokens_ceiling = 12'000;  // Newer upstream builds use 10,000.
  // Give up (keep the transcript unchanged) instead of inserting a static summary when
  // the summariser fails. Access and network failures always give up.
  bool abort_on_summary_failure = false;
  // Without an explicit focus, focus the summary on the last three user messages.
  bool auto_focus_topic = false;
  MissingResultRepair missing_result_repair = MissingResultRepair::kStubResult;

  // --- prune_tool_results_only ---
  int64_t prune_min_result_chars = 8'000;    // Results at most this long are kept (floor 200).
  int64_t prune_min_reclaim_tokens = 4'096;  // Below this saving the prune is not applied.

  // --- Hooks ---
  RedactionHook redact;         // Identity when empty.
  ContextStatusHook on_status;  // Notices are only logged when empty.
  // The clock cooldowns run on; std::chrono::steady_clock::now when empty.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

// What the last compress() call did.
struct CompressionReport {
  bool compacted = false;            // A summary replaced the middle of the transcript.
  bool aborted = false;              // The summariser failed for good; nothing changed.
  bool used_static_summary = false;  // The summariser failed; a deterministic summary stands in.
  bool used_main_provider = false;   // The auxiliary summariser failed; the main one answered.
  std::string error;                 // The summariser's failure, when there was one.
  std::size_t messages_before = 0;
  std::size_t messages_after = 0;
  int64_t tokens_before = 0;  // Rough estimates of the message lists.
  int64_t tokens_after = 0;
  int pruned_tool_results = 0;  // Tool results and arguments shrunk by phase 1.
  // Cuts made to tool results too large for the window, protected ones included (see
  // ContextCompressor::compress).
  int shortened_tool_results = 0;
  std::size_t summarized_messages = 0;
  double savings_percent = 0;
};

// The default ContextEngine.
//
// Thread-safety: like every ContextEngine, used by one agent's turn thread at a time. The
// providers it holds may be shared with other agents.
class HERMES_API ContextCompressor : public ContextEngine {
 public:
  // Validates `options` (InvalidArgument names the bad field).
  static Result<std::unique_ptr<ContextCompressor>> create(ContextCompressorOptions options);

  ~ContextCompressor() override;
  ContextCompressor(const ContextCompressor&) = delete;
  ContextCompressor& operator=(const ContextCompressor&) = delete;

  std::string name() const override { return "compressor"; }

  // Records the prompt size of a response (never its completion tokens: reasoning inflates
  // them and they are already part of the next prompt). An unreported usage means
  // "unknown" (0).
  void update_from_response(const Usage& usage) override;

  // True at or above the threshold unless blocked by a summary-failure cooldown or by two
  // ineffective (or two static-summary) compactions in a row. The −1 "just compressed"
  // sentinel counts as 0.
  bool should_compress(std::optional<int64_t> prompt_tokens = std::nullopt) override;
  CompressDecision should_compress_info(std::optional<int64_t> prompt_tokens) override;
  bool should_defer_preflight_to_real_usage(int64_t rough_tokens) override;

  // Runs the four phases. When there is nothing to summarise (too few messages, or all
  // of them protected) or the result is still larger than threshold_tokens(), tool
  // results are shortened, their beginning and end kept, largest first and protected ones
  // included, until it fits or none is longer than 2,000 characters; after a refusal for
  // size (options.overflow) the result is at most half of options.current_tokens. Returns
  // the input unchanged (pruned at most) when nothing could be done, which counts as an
  // ineffective compaction. Fails with
  // Unavailable, leaving the caller's transcript as it was, when the summariser failed
  // with an access, quota or network error, or with any error under
  // abort_on_summary_failure. `options.force` (manual /compress) first clears the
  // cooldown and the strike counters.
  Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                        const CompressOptions& options) override;

  int64_t context_length() const override;
  int64_t threshold_tokens() const override;

  // Phase 1 alone, protecting the last protect_last_n messages and touching only results
  // longer than prune_min_result_chars. nullopt when it would reclaim less than
  // prune_min_reclaim_tokens.
  std::optional<std::vector<Message>> prune_tool_results_only(
      const std::vector<Message>& messages) override;
  bool has_content_to_compress(const std::vector<Message>& messages) override;

  void on_session_start(const std::string& session_id, std::string_view boundary_reason) override;
  void on_session_end(const std::string& session_id, const std::vector<Message>& messages) override;
  void on_session_reset() override;
  void update_model(const std::string& model, int64_t context_length) override;
  std::string system_prompt_note() const override;
  Json status() const override;

  // Derived limits and counters.
  double threshold_percent() const;
  int64_t tail_token_budget() const;
  int64_t max_summary_tokens() const;
  int compression_count() const;

  // The steps of compress(), for callers that assemble their own compactions. Each takes
  // any message list and never fails.

  // Where the protected tail of `messages` starts when everything before `head_end` is
  // the protected head: walking back from the end under `token_budget` (tail_token_budget()
  // when nullopt; a message may overshoot it by half), keeping at least three messages,
  // never separating a tool call from its results, and always keeping the latest user
  // message. Greater than `head_end` unless `head_end` is at or past the end, when it is
  // messages.size(). (Upstream: _find_tail_cut_by_tokens.)
  std::size_t find_tail_cut_by_tokens(const std::vector<Message>& messages, std::size_t head_end,
                                      std::optional<int64_t> token_budget = std::nullopt) const;

  // Phase 1 on a copy of `messages`: repeated tool results become kDuplicateToolOutput
  // everywhere; outside the protected tail (the last `protect_tail_count` messages, or as
  // many as fit in `protect_tail_tokens` when given, whichever is more) results longer
  // than 200 characters become one-line descriptions, old screenshots kScreenshotRemoved,
  // and long strings inside tool-call arguments are cut. (Upstream: _prune_old_tool_results.)
  struct PrunedMessages {
    std::vector<Message> messages;
    int pruned = 0;  // Tool results replaced plus assistant messages whose arguments shrank.
  };
  PrunedMessages prune_old_tool_results(
      const std::vector<Message>& messages, int protect_tail_count,
      std::optional<int64_t> protect_tail_tokens = std::nullopt) const;

  // `arguments` with every string longer than `head_chars` characters inside its JSON cut
  // to that many plus "...[truncated]", re-serialised; unchanged when it is not JSON
  // (cutting raw text would leave JSON a provider refuses on every later request).
  // (Upstream: _truncate_tool_call_args_json.)
  static std::string truncate_tool_call_args_json(std::string_view arguments,
                                                  std::size_t head_chars = 200);
  int64_t last_prompt_tokens() const;
  // The body of the last summary, fed into the next one; empty before the first.
  const std::string& previous_summary() const;
  const CompressionReport& last_report() const;

 private:
  class Impl;
  explicit ContextCompressor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
