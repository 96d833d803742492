// What a failed model call does next, as one pure function of the classified error and
// the call's recovery state: refresh the credential, rotate the key, repair the request,
// compact the context, fall back to another provider, back off and retry, or stop.
//
// Some actions are attempts whose outcome only the attempt can tell: the host may return
// no credential, the key pool may keep its key (the first 429 in a row), the request may
// hold nothing to repair, no usable fallback may be left. The caller then marks that
// attempt declined in the facts and asks again, so every branch of the chain lives here
// and model_call.cpp only performs what it is told.
#pragma once

#include <string>
#include <string_view>

#include "hermes/api_error.hpp"

namespace hermes::internal {

// What the recovery of one failure may consult besides the error itself.
struct RecoveryFacts {
  int retry = 0;                        // Retries spent on the active provider before this failure.
  int max_attempts = 1;                 // Attempts per provider (failover.max_retries, at least 1).
  bool credential_refreshed = false;    // This call already retried with a fresh credential.
  bool can_refresh_credential = false;  // The host gave an auth refresh callback.
  bool keys_left = false;               // The primary's key pool has a key after the active one.

  // Attempts for this failure that turned out impossible (set by the caller, then it asks
  // again).
  bool refresh_declined = false;   // The host returned no new credential.
  bool rotation_declined = false;  // The key pool kept its key.
  bool repair_declined = false;    // The request holds nothing the refusal names.
  bool fallback_declined = false;  // No usable fallback provider is left.
};

enum class RecoveryKind {
  kRefreshCredential,  // Ask the host for a new credential and retry at once.
  kRotateKey,          // Switch to the next key of the pool and retry at once.
  kRepairRequest,      // Change what the provider refused in the request and retry at once.
  kCompact,            // Compact the transcript and run the step again.
  kFallBack,           // Switch to the next fallback provider and retry at once.
  kRetryAfterBackoff,  // Wait (Retry-After, or a jittered backoff) and retry.
  kFail,               // Stop the turn: `error` and `exit_reason` say why.
};

struct RecoveryAction {
  RecoveryKind kind = RecoveryKind::kFail;
  // The reason the failure is recorded under: an auth failure right after a refreshed
  // credential is permanent.
  FailoverReason reason = FailoverReason::kUnknown;
  // The retry count after the action: unchanged by a refresh or a repair (they spend no
  // retry), zero on a new key or provider, one more otherwise.
  int retry = 0;
  std::string error;        // kFail: the turn's error text.
  std::string exit_reason;  // kFail: the turn's exit reason.
};

// `error` as classified (classify_in_place) for the request that failed.
RecoveryAction decide_recovery(const ApiError& error, const RecoveryFacts& facts);

std::string_view recovery_kind_name(RecoveryKind kind);  // "refresh_credential", ...

}  // namespace hermes::internal
