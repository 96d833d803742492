// Calls into a host's MemoryProvider. The provider is an extension point: whatever it
// throws is logged and the turn goes on as if it had returned nothing.
#pragma once

#include <exception>
#include <string>

#include "hermes/memory.hpp"
#include "safety/log.hpp"

namespace hermes::internal {

// The provider's name for a log line; a name() that throws is not worth another failure.
inline std::string memory_provider_label(MemoryProvider& provider) {
  try {
    return provider.name();
  } catch (...) {
    return "(unnamed)";
  }
}

template <typename Fn>
auto call_memory_provider(MemoryProvider* provider, const char* what, Fn&& fn)
    -> decltype(fn(*provider)) {
  using R = decltype(fn(*provider));
  if (provider == nullptr) return R();
  try {
    return fn(*provider);
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("memory provider {}: {} threw: {}", memory_provider_label(*provider), what,
                    e.what());
  } catch (...) {
    HERMES_LOG_WARN("memory provider {}: {} threw a non-standard exception",
                    memory_provider_label(*provider), what);
  }
  return R();
}

}  // namespace hermes::internal
