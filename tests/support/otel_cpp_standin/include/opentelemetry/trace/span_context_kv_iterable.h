// Stand-in (tests only): trace::SpanContextKeyValueIterable (a span's links) and
// trace::NullSpanContext, no links.
#pragma once

#include <cstddef>

#include "opentelemetry/common/key_value_iterable.h"
#include "opentelemetry/nostd/function_ref.h"
#include "opentelemetry/trace/span_context.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class SpanContextKeyValueIterable {
 public:
  virtual ~SpanContextKeyValueIterable() = default;
  virtual bool ForEachKeyValue(
      nostd::function_ref<bool(SpanContext, const common::KeyValueIterable&)> callback)
      const noexcept = 0;
  virtual std::size_t size() const noexcept = 0;
};

class NullSpanContext : public SpanContextKeyValueIterable {
 public:
  bool ForEachKeyValue(nostd::function_ref<bool(SpanContext, const common::KeyValueIterable&)>)
      const noexcept override {
    return true;
  }
  std::size_t size() const noexcept override { return 0; }
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
