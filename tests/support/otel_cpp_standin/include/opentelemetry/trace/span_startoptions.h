// Stand-in (tests only): trace::StartSpanOptions, a span's start time, parent and kind.
#pragma once

#include "opentelemetry/common/timestamp.h"
#include "opentelemetry/context/context.h"
#include "opentelemetry/nostd/variant.h"
#include "opentelemetry/trace/span_context.h"
#include "opentelemetry/trace/span_metadata.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

struct StartSpanOptions {
  common::SystemTimestamp start_system_time;  // Default (zero): now.
  common::SteadyTimestamp start_steady_time;
  // An invalid SpanContext: the span current in the runtime context is the parent.
  nostd::variant<SpanContext, context::Context> parent = SpanContext::GetInvalid();
  SpanKind kind = SpanKind::kInternal;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
