// Stand-in (tests only): metrics::ObservableInstrument. The adapter makes none; the meter
// interface names it.
#pragma once

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace metrics {

class ObservableInstrument {
 public:
  ObservableInstrument() = default;
  virtual ~ObservableInstrument() = default;
};

}  // namespace metrics
OPENTELEMETRY_END_NAMESPACE
