// Stand-in (tests only): metrics::MeterProvider, which hands out named meters.
#pragma once

#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace metrics {

class Meter;

class OPENTELEMETRY_EXPORT MeterProvider {
 public:
  virtual ~MeterProvider() = default;
  virtual nostd::shared_ptr<Meter> GetMeter(nostd::string_view name,
                                            nostd::string_view version = "",
                                            nostd::string_view schema_url = "") noexcept = 0;
};

}  // namespace metrics
OPENTELEMETRY_END_NAMESPACE
