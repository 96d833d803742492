// Stand-in (tests only): trace::Tracer, which starts spans (ABI version 1: it also
// flushes and closes).
#pragma once

#include <chrono>
#include <cstdint>

#include "opentelemetry/common/key_value_iterable.h"
#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/trace/span.h"
#include "opentelemetry/trace/span_context_kv_iterable.h"
#include "opentelemetry/trace/span_startoptions.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class Tracer {
 public:
  virtual ~Tracer() = default;

  virtual nostd::shared_ptr<Span> StartSpan(nostd::string_view name,
                                            const common::KeyValueIterable& attributes,
                                            const SpanContextKeyValueIterable& links,
                                            const StartSpanOptions& options = {}) noexcept = 0;

  template <class Rep, class Period>
  void ForceFlush(std::chrono::duration<Rep, Period> timeout) noexcept {
    ForceFlushWithMicroseconds(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(timeout).count()));
  }
  virtual void ForceFlushWithMicroseconds(uint64_t timeout) noexcept = 0;

  template <class Rep, class Period>
  void Close(std::chrono::duration<Rep, Period> timeout) noexcept {
    CloseWithMicroseconds(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(timeout).count()));
  }
  virtual void CloseWithMicroseconds(uint64_t timeout) noexcept = 0;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
