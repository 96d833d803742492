// Stand-in (tests only): trace::Provider, the process-wide tracer provider. Unlike the
// real library's, the stand-in's starts out empty (null), not a no-op provider.
#pragma once

#include <mutex>

#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/trace/tracer_provider.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class OPENTELEMETRY_EXPORT Provider {
 public:
  static nostd::shared_ptr<TracerProvider> GetTracerProvider() noexcept {
    std::lock_guard<std::mutex> lock(mutex());
    return provider();
  }
  static void SetTracerProvider(const nostd::shared_ptr<TracerProvider>& next) noexcept {
    std::lock_guard<std::mutex> lock(mutex());
    provider() = next;
  }

 private:
  static nostd::shared_ptr<TracerProvider>& provider() noexcept {
    static nostd::shared_ptr<TracerProvider> global;
    return global;
  }
  static std::mutex& mutex() noexcept {
    static std::mutex lock;
    return lock;
  }
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
