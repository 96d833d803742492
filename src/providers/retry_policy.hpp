// How long the agent waits before retrying a failed model call.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace hermes::internal {

// The base and ceiling of an exponential backoff.
struct BackoffSchedule {
  std::chrono::milliseconds base;
  std::chrono::milliseconds max;
};

// After a response of the wrong shape (no choices, an error body with HTTP 200).
inline constexpr BackoffSchedule kInvalidResponseBackoff{std::chrono::seconds(5),
                                                         std::chrono::seconds(120)};
// After any other retryable API error.
inline constexpr BackoffSchedule kApiErrorBackoff{std::chrono::seconds(2),
                                                  std::chrono::seconds(60)};

// The longest a server-requested Retry-After delay is honoured.
inline constexpr std::chrono::seconds kMaxRetryAfter{600};

// The delay before retry number `attempt` (1-based; smaller values count as 1):
// min(base * 2^(attempt-1), max), plus a random extra of up to half that. Every call
// draws from a generator seeded afresh from the clock and a process-wide call counter,
// so agents that failed together do not retry in lockstep. Thread-safe.
std::chrono::milliseconds jittered_backoff(int attempt, std::chrono::milliseconds base,
                                           std::chrono::milliseconds max);
inline std::chrono::milliseconds jittered_backoff(int attempt, const BackoffSchedule& schedule) {
  return jittered_backoff(attempt, schedule.base, schedule.max);
}

// A server-requested delay (Retry-After, in seconds) as a wait: negative or non-finite
// values give zero, and anything beyond kMaxRetryAfter is capped to it.
std::chrono::milliseconds retry_after_delay(double seconds);

// The delay a rate-limit message suggests, for use when no header gave one:
// "Please try again in 1.146s", "... try again in 84ms", "retry after 20 seconds".
std::optional<double> retry_hint_from_message(std::string_view message);

}  // namespace hermes::internal
