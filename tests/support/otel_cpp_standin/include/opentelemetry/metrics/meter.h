// Stand-in (tests only): metrics::Meter, which makes instruments (the pure virtual
// functions of ABI version 1).
#pragma once

#include <cstdint>

#include "opentelemetry/metrics/async_instruments.h"
#include "opentelemetry/metrics/sync_instruments.h"
#include "opentelemetry/nostd/shared_ptr.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/nostd/unique_ptr.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace metrics {

class Meter {
 public:
  virtual ~Meter() = default;

  virtual nostd::unique_ptr<Counter<uint64_t>> CreateUInt64Counter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::unique_ptr<Counter<double>> CreateDoubleCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateInt64ObservableCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateDoubleObservableCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::unique_ptr<Histogram<uint64_t>> CreateUInt64Histogram(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::unique_ptr<Histogram<double>> CreateDoubleHistogram(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateInt64ObservableGauge(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateDoubleObservableGauge(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::unique_ptr<UpDownCounter<int64_t>> CreateInt64UpDownCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::unique_ptr<UpDownCounter<double>> CreateDoubleUpDownCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateInt64ObservableUpDownCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
  virtual nostd::shared_ptr<ObservableInstrument> CreateDoubleObservableUpDownCounter(
      nostd::string_view name, nostd::string_view description = "",
      nostd::string_view unit = "") noexcept = 0;
};

}  // namespace metrics
OPENTELEMETRY_END_NAMESPACE
