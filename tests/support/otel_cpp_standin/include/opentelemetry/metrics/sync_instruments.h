// Stand-in (tests only): the synchronous instruments Counter, Histogram and UpDownCounter,
// with the pure virtual functions of ABI version 1.
#pragma once

#include "opentelemetry/common/key_value_iterable.h"
#include "opentelemetry/context/context.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace metrics {

class SynchronousInstrument {
 public:
  SynchronousInstrument() = default;
  virtual ~SynchronousInstrument() = default;
};

template <class T>
class Counter : public SynchronousInstrument {
 public:
  virtual void Add(T value) noexcept = 0;
  virtual void Add(T value, const context::Context& context) noexcept = 0;
  virtual void Add(T value, const common::KeyValueIterable& attributes) noexcept = 0;
  virtual void Add(T value, const common::KeyValueIterable& attributes,
                   const context::Context& context) noexcept = 0;
};

template <class T>
class Histogram : public SynchronousInstrument {
 public:
  virtual void Record(T value, const context::Context& context) noexcept = 0;
  virtual void Record(T value, const common::KeyValueIterable& attributes,
                      const context::Context& context) noexcept = 0;
};

template <class T>
class UpDownCounter : public SynchronousInstrument {
 public:
  virtual void Add(T value) noexcept = 0;
  virtual void Add(T value, const context::Context& context) noexcept = 0;
  virtual void Add(T value, const common::KeyValueIterable& attributes) noexcept = 0;
  virtual void Add(T value, const common::KeyValueIterable& attributes,
                   const context::Context& context) noexcept = 0;
};

}  // namespace metrics
OPENTELEMETRY_END_NAMESPACE
