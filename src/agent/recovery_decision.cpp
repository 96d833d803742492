// The recovery chain of a failed model call, in the order upstream's retry loop tries it.
#include "agent/recovery_decision.hpp"

namespace hermes::internal {
namespace {

// Reasons whose failure another key of the pool may not share. The pool itself applies
// the rule that a first 429 retries the same key and only the second in a row rotates.
bool rotates_key(const ApiError& e) {
  switch (e.reason) {
    case FailoverReason::kBilling:
    case FailoverReason::kRateLimit:
      return true;
    case FailoverReason::kAuth:
    case FailoverReason::kAuthPermanent:
      return e.should_rotate_credential;
    default:
      return false;
  }
}

// Refusals of something the request carries, repaired without spending a retry.
bool repairable(FailoverReason reason) {
  return reason == FailoverReason::kImageCorrupt || reason == FailoverReason::kReasoningMandatory;
}

// Reasons that switch to a fallback before the retries run out.
bool falls_back_eagerly(const ApiError& e, int retry, bool keys_left) {
  switch (e.reason) {
    case FailoverReason::kRateLimit:
      return !keys_left;  // The key pool may still recover.
    case FailoverReason::kBilling:
    case FailoverReason::kUpstreamRateLimit:
      return true;
    case FailoverReason::kTimeout:
    case FailoverReason::kOverloaded:
      return retry >= 2;
    default:
      // A response of the wrong shape switches at once when a fallback exists.
      return e.error_code == "invalid_response";
  }
}

RecoveryAction act(RecoveryKind kind, FailoverReason reason, int retry) {
  RecoveryAction a;
  a.kind = kind;
  a.reason = reason;
  a.retry = retry;
  return a;
}

RecoveryAction fail(FailoverReason reason, int retry, std::string error, std::string exit_reason) {
  RecoveryAction a = act(RecoveryKind::kFail, reason, retry);
  a.error = std::move(error);
  a.exit_reason = std::move(exit_reason);
  return a;
}

}  // namespace

RecoveryAction decide_recovery(const ApiError& error, const RecoveryFacts& facts) {
  ApiError e = error;
  if (e.reason == FailoverReason::kAuth) {
    if (facts.credential_refreshed) {
      e.reason = FailoverReason::kAuthPermanent;  // A fresh credential did not help.
    } else if (facts.can_refresh_credential && !facts.refresh_declined) {
      return act(RecoveryKind::kRefreshCredential, e.reason, facts.retry);
    }
  }
  if (facts.keys_left && !facts.rotation_declined && rotates_key(e)) {
    return act(RecoveryKind::kRotateKey, e.reason, 0);
  }
  if (repairable(e.reason) && !facts.repair_declined) {
    return act(RecoveryKind::kRepairRequest, e.reason, facts.retry);
  }
  const int retry = facts.retry + 1;
  if (e.should_compress) return act(RecoveryKind::kCompact, e.reason, retry);
  const bool fallback = !facts.fallback_declined;
  if (fallback && falls_back_eagerly(e, retry, facts.keys_left)) {
    return act(RecoveryKind::kFallBack, e.reason, 0);
  }
  const std::string reason_name(failover_reason_name(e.reason));
  if (!e.retryable) {
    // A provider's policy refusal would be the same on any route through it.
    if (fallback && e.should_fallback && e.reason != FailoverReason::kProviderPolicyBlocked) {
      return act(RecoveryKind::kFallBack, e.reason, 0);
    }
    return fail(e.reason, retry, e.to_string(), "non_retryable_error(" + reason_name + ")");
  }
  if (retry >= facts.max_attempts) {
    if (fallback) return act(RecoveryKind::kFallBack, e.reason, 0);
    return fail(e.reason, retry,
                "API call failed after " + std::to_string(retry) + " retries: " + e.to_string(),
                "all_retries_exhausted_no_response");
  }
  return act(RecoveryKind::kRetryAfterBackoff, e.reason, retry);
}

std::string_view recovery_kind_name(RecoveryKind kind) {
  switch (kind) {
    case RecoveryKind::kRefreshCredential:
      return "refresh_credential";
    case RecoveryKind::kRotateKey:
      return "rotate_key";
    case RecoveryKind::kRepairRequest:
      return "repair_request";
    case RecoveryKind::kCompact:
      return "compact";
    case RecoveryKind::kFallBack:
      return "fall_back";
    case RecoveryKind::kRetryAfterBackoff:
      return "retry_after_backoff";
    case RecoveryKind::kFail:
      return "fail";
  }
  return "fail";
}

}  // namespace hermes::internal
