// Stand-in (tests only): trace::SpanKind, trace::StatusCode and trace::EndSpanOptions.
#pragma once

#include "opentelemetry/common/timestamp.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

enum class SpanKind { kInternal, kServer, kClient, kProducer, kConsumer };

enum class StatusCode { kUnset, kOk, kError };

struct EndSpanOptions {
  common::SteadyTimestamp end_steady_time;  // Default: now.
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
