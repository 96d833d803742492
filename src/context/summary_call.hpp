// Phase 3 call: asking the summariser model(s) for the summary and judging the answer.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/context_compressor.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// Why no summary came back.
enum class SummaryFailure {
  kNone,
  kNoProvider,   // No summariser configured.
  kAccess,       // Authentication, permission or exhausted quota: retrying cannot help.
  kNetwork,      // The connection failed or dropped.
  kTimeout,      // A timeout, rate limit or gateway timeout.
  kMalformed,    // The response body was not JSON.
  kEmpty,        // The model answered with nothing.
  kTruncated,    // The answer hit the output limit (finish reason "length").
  kWrongFormat,  // The answer is not a structured summary.
  kOther,
};

std::string_view summary_failure_name(SummaryFailure failure);

// The summariser models, tried in order.
struct Summarizers {
  std::shared_ptr<Provider> auxiliary;
  std::string auxiliary_model;
  std::shared_ptr<Provider> main;
  std::string main_model;
};

struct SummaryAnswer {
  std::optional<std::string> body;                 // The accepted summary body, redacted.
  SummaryFailure failure = SummaryFailure::kNone;  // Of the last attempt when none succeeded.
  std::string error;                               // A sentence describing `failure`.
  bool used_main = false;       // The auxiliary model failed and the main one answered.
  std::string auxiliary_error;  // Why the auxiliary model failed, when it did.
};

// Sends `prompt` as one user message, non-streaming, without tools and without max_tokens
// (an output cap would cut summaries short; the budget is in the prompt). The auxiliary
// model is tried first and the main one once after it.
SummaryAnswer request_summary(const Summarizers& summarizers, const std::string& prompt,
                              const RedactionHook& redact);

// Judges one response text: the accepted body, or why it is not one.
SummaryFailure judge_summary_text(std::string_view content, std::string_view finish_reason,
                                  std::string& body);

// True for failures after which the transcript is kept unchanged rather than replaced by
// a static summary: the conversation loses nothing while access or the network is down.
bool keeps_transcript_unchanged(SummaryFailure failure);

// How long automatic compaction pauses after `failure`. Timeouts escalate with
// `consecutive_timeouts` (1, 2, 3+): 60 s, 300 s, 900 s.
std::chrono::seconds summary_cooldown(SummaryFailure failure, int consecutive_timeouts);

}  // namespace hermes::internal
