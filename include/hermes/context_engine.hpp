// hermes/context_engine.hpp — keeping a long conversation inside the model's window.
//
// The agent asks its ContextEngine, before and after model calls, whether the transcript
// must shrink, and lets it compress. The default engine (ContextCompressor) prunes old
// tool output, then summarises the middle of the conversation with an auxiliary model;
// users can plug their own engine by implementing this interface.
#pragma once

#include "hermes/export.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes {

struct CompressOptions {
  // The prompt size the compaction is judged against; estimated when unset.
  std::optional<int64_t> current_tokens;
  // Give this topic most of the summary budget (the /compress <focus> command).
  std::string focus_topic;
  // Compress even if the guards would say no (manual compaction).
  bool force = false;
  // Context of external memory providers to preserve in the summary.
  std::string memory_context;
  // The provider refused the request as too large (a context-overflow or 413 error): the
  // result must come out smaller than `current_tokens`, even when that means shortening
  // tool output the engine would otherwise protect.
  bool overflow = false;
};

// The verdict of ContextEngine::should_compress_info.
struct CompressDecision {
  bool compress = false;
  // Why compression is refused although the size is over the threshold ("cooldown:42",
  // "ineffective"); empty otherwise. The agent warns the user with it, since a blocked
  // session keeps growing towards the provider's hard limit.
  std::string blocked_reason;
};

// A context engine.
//
// Thread-safety: an engine belongs to one Agent and is called from that agent's turn
// thread only. Required methods are pure virtual; the optional ones have permissive
// defaults.
class HERMES_API ContextEngine {
 public:
  virtual ~ContextEngine() = default;

  // A short name for status displays, e.g. "compressor".
  virtual std::string name() const = 0;

  // --- Required ---

  // Receives the normalised usage of every model response.
  virtual void update_from_response(const Usage& usage) = 0;

  // Whether the transcript should be compressed now. `prompt_tokens` is the size to
  // judge; when unset the engine uses the last reported prompt size.
  virtual bool should_compress(std::optional<int64_t> prompt_tokens = std::nullopt) = 0;

  // Returns a compressed copy of `messages`. The result is always a valid transcript:
  // no tool call without its result, no orphan result, roles alternating. On failure the
  // caller keeps the original messages unchanged.
  virtual Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                                const CompressOptions& options) = 0;

  // The model's context window and the size at which compression triggers.
  virtual int64_t context_length() const = 0;
  virtual int64_t threshold_tokens() const = 0;

  // --- Optional ---

  // should_compress with the reason when compression is blocked.
  virtual CompressDecision should_compress_info(std::optional<int64_t> prompt_tokens) {
    return CompressDecision{should_compress(prompt_tokens), {}};
  }

  // The turn-start check on a rough estimate (messages plus tool schemas).
  virtual bool should_compress_preflight(int64_t rough_tokens) {
    return should_compress(rough_tokens);
  }

  // Whether the turn-start check should wait for the provider's real prompt size instead
  // of acting on `rough_tokens` (right after a compaction, or while the estimate has
  // barely grown since the provider last reported a prompt that fit).
  virtual bool should_defer_preflight_to_real_usage(int64_t /*rough_tokens*/) { return false; }

  // Cheap pruning of old tool output only, without a model call. nullopt: nothing done.
  virtual std::optional<std::vector<Message>> prune_tool_results_only(
      const std::vector<Message>& /*messages*/) {
    return std::nullopt;
  }

  // Whether `messages` has anything the engine could compress.
  virtual bool has_content_to_compress(const std::vector<Message>& messages) {
    return messages.size() > 1;
  }

  // Session lifecycle.
  virtual void on_session_start(const std::string& /*session_id*/,
                                std::string_view /*boundary_reason*/) {}
  virtual void on_session_end(const std::string& /*session_id*/,
                              const std::vector<Message>& /*messages*/) {}
  virtual void on_session_reset() {}
  virtual void on_turn_complete() {}

  // The model changed (switch or fallback): recompute limits for its window.
  virtual void update_model(const std::string& /*model*/, int64_t /*context_length*/) {}

  // Text the agent appends to its system prompt, after a blank line, when it rebuilds the
  // prompt after a compaction; empty when nothing is to be added. The agent keeps the
  // system prompt outside the transcript, so the engine cannot edit it itself. Appending
  // is idempotent: skip it when the prompt already contains the text.
  virtual std::string system_prompt_note() const { return {}; }

  // Counters for status displays (last_prompt_tokens, threshold_tokens, ...).
  virtual Json status() const { return Json::object(); }
};

}  // namespace hermes
