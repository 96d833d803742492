// Stand-in (tests only): trace::TracerProvider, which hands out named tracers.
#pragma once

#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class Tracer;

class OPENTELEMETRY_EXPORT TracerProvider {
 public:
  virtual ~TracerProvider() = default;
  virtual nostd::shared_ptr<Tracer> GetTracer(nostd::string_view name,
                                              nostd::string_view version = "",
                                              nostd::string_view schema_url = "") noexcept = 0;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
