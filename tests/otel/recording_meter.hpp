// A meter (and meter provider) implementing the opentelemetry-cpp metrics API that keeps
// every instrument it makes and every measurement the instruments receive. Written
// against the API only, like recording_tracer.hpp.
#pragma once

#include <opentelemetry/common/key_value_iterable.h>
#include <opentelemetry/context/context.h>
#include <opentelemetry/metrics/meter.h>
#include <opentelemetry/metrics/meter_provider.h>
#include <opentelemetry/metrics/sync_instruments.h>
#include <opentelemetry/nostd/shared_ptr.h>
#include <opentelemetry/nostd/string_view.h>
#include <opentelemetry/nostd/unique_ptr.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "otel/recording_tracer.hpp"

namespace hermes::testing::otel {

struct RecordedInstrument {
  std::string name;
  std::string type;  // "uint64_counter", "double_counter", "double_histogram", or "other".
  std::string description;
  std::string unit;
};

struct RecordedMeasurement {
  std::string instrument;
  std::string type;
  double value = 0;
  RecordedAttributes attributes;
};

class RecordingMeter : public api::metrics::Meter {
 public:
  api::nostd::unique_ptr<api::metrics::Counter<uint64_t>> CreateUInt64Counter(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    return api::nostd::unique_ptr<api::metrics::Counter<uint64_t>>(
        new Counter<uint64_t>(made(name, "uint64_counter", description, unit)));
  }
  api::nostd::unique_ptr<api::metrics::Counter<double>> CreateDoubleCounter(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    return api::nostd::unique_ptr<api::metrics::Counter<double>>(
        new Counter<double>(made(name, "double_counter", description, unit)));
  }
  api::nostd::unique_ptr<api::metrics::Histogram<double>> CreateDoubleHistogram(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    return api::nostd::unique_ptr<api::metrics::Histogram<double>>(
        new Histogram<double>(made(name, "double_histogram", description, unit)));
  }

  // What the adapter never asks for: noted, and refused.
  api::nostd::unique_ptr<api::metrics::Histogram<uint64_t>> CreateUInt64Histogram(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    made(name, "other", description, unit);
    return api::nostd::unique_ptr<api::metrics::Histogram<uint64_t>>(nullptr);
  }
  api::nostd::unique_ptr<api::metrics::UpDownCounter<int64_t>> CreateInt64UpDownCounter(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    made(name, "other", description, unit);
    return api::nostd::unique_ptr<api::metrics::UpDownCounter<int64_t>>(nullptr);
  }
  api::nostd::unique_ptr<api::metrics::UpDownCounter<double>> CreateDoubleUpDownCounter(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    made(name, "other", description, unit);
    return api::nostd::unique_ptr<api::metrics::UpDownCounter<double>>(nullptr);
  }
#define HERMES_RECORDING_OBSERVABLE(Function)                            \
  api::nostd::shared_ptr<api::metrics::ObservableInstrument> Function(   \
      api::nostd::string_view name, api::nostd::string_view description, \
      api::nostd::string_view unit) noexcept override {                  \
    made(name, "other", description, unit);                              \
    return api::nostd::shared_ptr<api::metrics::ObservableInstrument>(); \
  }
  HERMES_RECORDING_OBSERVABLE(CreateInt64ObservableCounter)
  HERMES_RECORDING_OBSERVABLE(CreateDoubleObservableCounter)
  HERMES_RECORDING_OBSERVABLE(CreateInt64ObservableGauge)
  HERMES_RECORDING_OBSERVABLE(CreateDoubleObservableGauge)
  HERMES_RECORDING_OBSERVABLE(CreateInt64ObservableUpDownCounter)
  HERMES_RECORDING_OBSERVABLE(CreateDoubleObservableUpDownCounter)
#undef HERMES_RECORDING_OBSERVABLE
#if OPENTELEMETRY_ABI_VERSION_NO >= 2
  api::nostd::unique_ptr<api::metrics::Gauge<int64_t>> CreateInt64Gauge(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    made(name, "other", description, unit);
    return api::nostd::unique_ptr<api::metrics::Gauge<int64_t>>(nullptr);
  }
  api::nostd::unique_ptr<api::metrics::Gauge<double>> CreateDoubleGauge(
      api::nostd::string_view name, api::nostd::string_view description,
      api::nostd::string_view unit) noexcept override {
    made(name, "other", description, unit);
    return api::nostd::unique_ptr<api::metrics::Gauge<double>>(nullptr);
  }
#endif

  std::vector<RecordedInstrument> instruments() const {
    std::lock_guard<std::mutex> lock(log_->mu);
    return log_->instruments;
  }
  std::vector<RecordedMeasurement> measurements() const {
    std::lock_guard<std::mutex> lock(log_->mu);
    return log_->measurements;
  }

 private:
  struct Log {
    std::mutex mu;
    std::vector<RecordedInstrument> instruments;
    std::vector<RecordedMeasurement> measurements;

    void add(const RecordedInstrument& instrument, double value,
             const api::common::KeyValueIterable* attributes) {
      RecordedMeasurement m{instrument.name, instrument.type, value, {}};
      if (attributes != nullptr) m.attributes = record_attributes(*attributes);
      std::lock_guard<std::mutex> lock(mu);
      measurements.push_back(std::move(m));
    }
  };

  struct Made {
    std::shared_ptr<Log> log;
    RecordedInstrument instrument;
  };

  template <class T>
  class Counter : public api::metrics::Counter<T> {
   public:
    explicit Counter(Made made) : made_(std::move(made)) {}
    void Add(T value) noexcept override { record(value, nullptr); }
    void Add(T value, const api::context::Context&) noexcept override { record(value, nullptr); }
    void Add(T value, const api::common::KeyValueIterable& attributes) noexcept override {
      record(value, &attributes);
    }
    void Add(T value, const api::common::KeyValueIterable& attributes,
             const api::context::Context&) noexcept override {
      record(value, &attributes);
    }

   private:
    void record(T value, const api::common::KeyValueIterable* attributes) {
      made_.log->add(made_.instrument, static_cast<double>(value), attributes);
    }
    Made made_;
  };

  template <class T>
  class Histogram : public api::metrics::Histogram<T> {
   public:
    explicit Histogram(Made made) : made_(std::move(made)) {}
#if OPENTELEMETRY_ABI_VERSION_NO >= 2
    void Record(T value) noexcept override {
      record(value, nullptr);
    }
    void Record(T value, const api::common::KeyValueIterable& attributes) noexcept override {
      record(value, &attributes);
    }
#endif
    void Record(T value, const api::context::Context&) noexcept override {
      record(value, nullptr);
    }
    void Record(T value, const api::common::KeyValueIterable& attributes,
                const api::context::Context&) noexcept override {
      record(value, &attributes);
    }

   private:
    void record(T value, const api::common::KeyValueIterable* attributes) {
      made_.log->add(made_.instrument, static_cast<double>(value), attributes);
    }
    Made made_;
  };

  Made made(api::nostd::string_view name, const char* type, api::nostd::string_view description,
            api::nostd::string_view unit) {
    RecordedInstrument instrument{text_of(name), type, text_of(description), text_of(unit)};
    std::lock_guard<std::mutex> lock(log_->mu);
    log_->instruments.push_back(instrument);
    return {log_, instrument};
  }

  std::shared_ptr<Log> log_ = std::make_shared<Log>();
};

// A provider handing out one recording meter, and noting what it was asked for.
class RecordingMeterProvider : public api::metrics::MeterProvider {
 public:
  std::shared_ptr<RecordingMeter> meter = std::make_shared<RecordingMeter>();
  std::string asked_name;
  std::string asked_version;

#if OPENTELEMETRY_ABI_VERSION_NO >= 2
  api::nostd::shared_ptr<api::metrics::Meter> GetMeter(
      api::nostd::string_view name, api::nostd::string_view version, api::nostd::string_view,
      const api::common::KeyValueIterable*) noexcept override {
    return give(name, version);
  }
#else
  api::nostd::shared_ptr<api::metrics::Meter> GetMeter(api::nostd::string_view name,
                                                       api::nostd::string_view version,
                                                       api::nostd::string_view) noexcept override {
    return give(name, version);
  }
#endif

 private:
  api::nostd::shared_ptr<api::metrics::Meter> give(api::nostd::string_view name,
                                                   api::nostd::string_view version) {
    asked_name = text_of(name);
    asked_version = text_of(version);
    return api::nostd::shared_ptr<api::metrics::Meter>(std::shared_ptr<api::metrics::Meter>(meter));
  }
};

inline api::nostd::shared_ptr<api::metrics::Meter> as_api(
    const std::shared_ptr<RecordingMeter>& meter) {
  return api::nostd::shared_ptr<api::metrics::Meter>(std::shared_ptr<api::metrics::Meter>(meter));
}

}  // namespace hermes::testing::otel
