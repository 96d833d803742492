// TEMPORARY: replaced by the provider layer's retry policy.
#pragma once
#include <chrono>
namespace hermes::internal {
std::chrono::milliseconds jittered_backoff(int attempt, double base_seconds, double max_seconds);
}
