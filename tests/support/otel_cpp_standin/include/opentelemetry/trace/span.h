// Stand-in (tests only): trace::Span, with the pure virtual functions of ABI version 1.
#pragma once

#include "opentelemetry/common/attribute_value.h"
#include "opentelemetry/common/key_value_iterable.h"
#include "opentelemetry/common/timestamp.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/trace/span_context.h"
#include "opentelemetry/trace/span_metadata.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace trace {

class Span {
 public:
  Span() = default;
  virtual ~Span() = default;
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

  virtual void SetAttribute(nostd::string_view key,
                            const common::AttributeValue& value) noexcept = 0;
  virtual void AddEvent(nostd::string_view name) noexcept = 0;
  virtual void AddEvent(nostd::string_view name, common::SystemTimestamp timestamp) noexcept = 0;
  virtual void AddEvent(nostd::string_view name, common::SystemTimestamp timestamp,
                        const common::KeyValueIterable& attributes) noexcept = 0;
  virtual void SetStatus(StatusCode code, nostd::string_view description = "") noexcept = 0;
  virtual void UpdateName(nostd::string_view name) noexcept = 0;
  virtual void End(const EndSpanOptions& options = {}) noexcept = 0;
  virtual SpanContext GetContext() const noexcept = 0;
  virtual bool IsRecording() const noexcept = 0;
};

}  // namespace trace
OPENTELEMETRY_END_NAMESPACE
