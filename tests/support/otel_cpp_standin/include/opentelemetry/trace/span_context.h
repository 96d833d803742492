// Stand-in (tests only): trace::SpanContext, what a child needs of its parent: trace id,
// span id, flags, and whether it came from another process.
#pragma once

#include "opentelemetry/trace/span_id.h"
#include "opentelemetry/trace/trace_flags.h"
#include "opentelemetry/trace/trace_id.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class SpanContext final {
 public:
  SpanContext(bool sampled, bool is_remote) noexcept
      : trace_flags_(static_cast<uint8_t>(sampled ? TraceFlags::kIsSampled : 0)),
        is_remote_(is_remote) {}
  SpanContext(TraceId trace_id, SpanId span_id, TraceFlags trace_flags, bool is_remote) noexcept
      : trace_id_(trace_id), span_id_(span_id), trace_flags_(trace_flags), is_remote_(is_remote) {}

  bool IsValid() const noexcept { return trace_id_.IsValid() && span_id_.IsValid(); }
  const TraceId& trace_id() const noexcept { return trace_id_; }
  const SpanId& span_id() const noexcept { return span_id_; }
  const TraceFlags& trace_flags() const noexcept { return trace_flags_; }
  bool IsRemote() const noexcept { return is_remote_; }
  bool IsSampled() const noexcept { return trace_flags_.IsSampled(); }
  bool operator==(const SpanContext& other) const noexcept {
    return trace_id_ == other.trace_id_ && span_id_ == other.span_id_ &&
           trace_flags_ == other.trace_flags_;
  }

  static SpanContext GetInvalid() noexcept { return SpanContext(false, false); }

 private:
  TraceId trace_id_;
  SpanId span_id_;
  TraceFlags trace_flags_;
  bool is_remote_ = false;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
