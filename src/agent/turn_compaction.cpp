// The compaction triggers of a turn: preflight at turn start, before each
// model call, after each tool round, and on context-overflow errors (model_call.cpp).
#include <algorithm>

#include "agent/compaction.hpp"
#include "agent/turn_runner.hpp"
#include "context/compression_triggers.hpp"
#include "hermes/token_estimate.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

// The index of the turn's user message, found by its turn id (a compaction copies and
// reorders messages, so positions cannot be trusted).
std::size_t find_turn_user(const std::vector<Message>& messages, const std::string& turn_id,
                           std::size_t fallback) {
  for (std::size_t i = messages.size(); i-- > 0;) {
    const Json& extra = messages[i].extra;
    if (extra.is_object() && extra.value("_hermes_turn_id", "") == turn_id) return i;
  }
  return std::min(fallback, messages.empty() ? 0 : messages.size() - 1);
}

}  // namespace

int64_t TurnRunner::request_estimate(const ProviderRequest& request) const {
  return estimate_messages_tokens_rough(request.messages) +
         estimate_tools_tokens_rough(request.tools);
}

bool TurnRunner::compact(const std::string& reason, std::optional<int64_t> current_tokens) {
  if (!core_.engine || st_.compression_attempts >= kMaxCompressionAttempts) return false;
  ++st_.compression_attempts;
  CompactionRequest request;
  request.reason = reason;
  request.current_tokens = current_tokens;
  CompactionOutcome outcome = compact_transcript(core_, st_.messages, request);
  if (!outcome.compacted) return false;
  st_.user_index = find_turn_user(st_.messages, st_.turn_id, st_.user_index);
  prepare_system_prompt(/*allow_stored=*/false);
  if (core_.store && core_.session_row_created) {
    (void)core_.store->set_system_prompt(core_.session_id, core_.system_prompt);
  }
  st_.last_prompt_tokens = -1;  // Just compressed: the next real usage tells the new size.
  core_.last_compaction_tokens = wire_estimate();
  return true;
}

void TurnRunner::idle_compaction() {
  const double after = core_.options.compression.idle_compact_after_seconds;
  ContextEngine* engine = core_.engine.get();
  if (after <= 0 || engine == nullptr || st_.idle_seconds <= after) return;
  if (!engine->has_content_to_compress(st_.messages)) return;
  // Worth it only once the conversation has grown by a fifth of the threshold (the
  // default summary target ratio) since the last compaction.
  const int64_t floor = engine->threshold_tokens() / 5;
  const int64_t rough = wire_estimate();
  if (rough <= std::max(floor, core_.last_compaction_tokens + floor)) return;
  status("lifecycle",
         fmt::format("\xF0\x9F\x92\xA4 Resumed after {}s idle \xE2\x80\x94 compacting ~{} "
                     "tokens before continuing.",
                     static_cast<int64_t>(st_.idle_seconds), rough));
  (void)compact("idle", rough);
}

void TurnRunner::preflight_compaction() {
  ContextEngine* engine = core_.engine.get();
  if (engine == nullptr || st_.messages.size() < 2) return;
  int64_t rough = wire_estimate();
  if (!preflight_worth_checking(st_.messages.size(), 3, core_.options.compression.protect_last_n,
                                rough, engine->threshold_tokens()))
    return;
  if (engine->should_defer_preflight_to_real_usage(rough)) return;
  for (int pass = 0; pass < kMaxCompressionAttempts; ++pass) {
    CompressDecision decision = engine->should_compress_info(rough);
    if (!decision.compress) {
      if (!decision.blocked_reason.empty() && rough >= engine->threshold_tokens()) {
        status(
            "compression_blocked",
            fmt::format("\xE2\x9A\xA0 Context is over the compression threshold (~{} tokens >= {}) "
                        "but compression is currently blocked ({}). The model may stop "
                        "responding.",
                        rough, engine->threshold_tokens(), decision.blocked_reason));
      }
      return;
    }
    status("lifecycle", fmt::format("\xF0\x9F\x93\xA6 Preflight compression: ~{} tokens >= {} "
                                    "threshold. This may take a moment.",
                                    rough, engine->threshold_tokens()));
    const PassMeasure before{st_.messages.size(), rough};
    if (!compact("preflight", rough)) return;
    rough = wire_estimate();
    const PassMeasure after{st_.messages.size(), rough};
    if (!should_run_another_preflight_pass(pass + 1, before, after, engine->threshold_tokens()))
      return;
  }
}

bool TurnRunner::pre_api_compaction(int64_t estimate) {
  ContextEngine* engine = core_.engine.get();
  if (engine == nullptr || st_.messages.size() < 2 ||
      st_.compression_attempts >= kMaxCompressionAttempts) {
    return false;
  }
  if (engine->should_defer_preflight_to_real_usage(estimate) ||
      !engine->should_compress(estimate)) {
    return false;
  }
  status("lifecycle", fmt::format("\xF0\x9F\x93\xA6 Pre-API compression: ~{} tokens near the "
                                  "context/output limit. Compacting before the next model call.",
                                  estimate));
  return compact("pre_api", estimate);
}

void TurnRunner::post_tool_compaction() {
  ContextEngine* engine = core_.engine.get();
  if (engine == nullptr) return;
  // The provider's prompt size of the last response already contains the tool calls;
  // completion tokens are never added (they would count twice).
  // Only a provider that reported no usage needs the (whole-transcript) estimate.
  const int64_t rough = st_.last_prompt_tokens == 0 ? wire_estimate() : 0;
  const int64_t tokens = post_tool_prompt_tokens(st_.last_prompt_tokens, rough);
  if (engine->should_compress(tokens)) compact("post_tool", tokens);
}

}  // namespace hermes::internal
