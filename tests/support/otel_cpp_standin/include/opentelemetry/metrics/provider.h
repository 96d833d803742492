// Stand-in (tests only): metrics::Provider, the process-wide meter provider. Unlike the
// real library's, the stand-in's starts out empty (null), not a no-op provider.
#pragma once

#include <mutex>

#include "opentelemetry/metrics/meter_provider.h"
#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace metrics {

class OPENTELEMETRY_EXPORT Provider {
 public:
  static nostd::shared_ptr<MeterProvider> GetMeterProvider() noexcept {
    std::lock_guard<std::mutex> lock(mutex());
    return provider();
  }
  static void SetMeterProvider(const nostd::shared_ptr<MeterProvider>& next) noexcept {
    std::lock_guard<std::mutex> lock(mutex());
    provider() = next;
  }

 private:
  static nostd::shared_ptr<MeterProvider>& provider() noexcept {
    static nostd::shared_ptr<MeterProvider> global;
    return global;
  }
  static std::mutex& mutex() noexcept {
    static std::mutex lock;
    return lock;
  }
};

}  // namespace metrics
OPENTELEMETRY_END_NAMESPACE
