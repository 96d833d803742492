// The output cap of a call that retries one cut short by the output limit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace hermes::internal {

// The max_tokens for the `attempt`-th retry (1-based) of a response cut by the output
// limit: the configured cap (4096 when none) doubled per attempt, never below the
// configured cap and never above max(32768, configured cap).
inline int64_t boosted_output_cap(std::optional<int64_t> configured, int attempt) {
  const int64_t base = configured.value_or(4096);
  int64_t boost = base << std::clamp(attempt, 0, 16);
  if (configured) boost = std::max(boost, *configured);
  return std::min(boost, std::max<int64_t>(32768, configured.value_or(0)));
}

}  // namespace hermes::internal
