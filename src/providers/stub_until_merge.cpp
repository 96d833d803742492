// TEMPORARY: replaced by the provider layer.
#include <random>
#include "hermes/api_error.hpp"
#include "providers/retry_policy.hpp"
namespace hermes {
void classify_in_place(ApiError& e, int64_t, int64_t, int64_t) {
  e.retryable = e.http_status == 429 || e.http_status >= 500 || e.transport != TransportFailure::kNone;
  e.reason = e.http_status == 429 ? FailoverReason::kRateLimit : e.http_status >= 500 ? FailoverReason::kServerError : FailoverReason::kFormatError;
}
namespace internal {
std::chrono::milliseconds jittered_backoff(int attempt, double base, double max) {
  double d = std::min(base * (1 << (attempt - 1)), max);
  return std::chrono::milliseconds(static_cast<int64_t>(d * 1000));
}
}
}
#include "hermes/provider.hpp"
namespace hermes {
Result<std::shared_ptr<Provider>> make_provider(const ProviderConfig&) { return Status::unimplemented("x"); }
}
