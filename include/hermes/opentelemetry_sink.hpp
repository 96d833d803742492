// hermes/opentelemetry_sink.hpp — a TraceSink that hands hermes' spans and measurements
// to the opentelemetry-cpp API, so they land in the tracer and meter providers (the SDK,
// its samplers, processors and exporters) an application already runs.
//
// Header-only and optional: the hermes library does not depend on opentelemetry-cpp and
// none of its sources includes this header. A program that links opentelemetry-cpp
// (the API at least: CMake target opentelemetry-cpp::api) includes it and sets
//
//   options.tracing.sink = std::make_shared<hermes::OpenTelemetrySink>();
//
// Each hermes span becomes an OpenTelemetry span with the same name, kind, start and end
// times, attributes and status, under the same parent: a turn's span under the span
// current in the OpenTelemetry context of the thread that runs the turn (or under
// `tracing.traceparent`), everything else under its hermes parent. The span ids are the
// tracer's own. Measurements go to instruments of the meter: counters whose unit counts
// things ("", "1", "{call}", ...) to Counter<uint64_t>, other counters to Counter<double>,
// histograms to Histogram<double>; each instrument is created once, on its first
// measurement.
//
// flush(): with ABI version 1 of the API the tracer's ForceFlush is called, which the SDK
// forwards to its span processors. The metrics API has no flush, nor has ABI version 2 for
// traces: call ForceFlush() on your SDK providers (opentelemetry::sdk::trace::TracerProvider,
// opentelemetry::sdk::metrics::MeterProvider) before exiting.
//
// Thread-safe: spans start and end on the turn's thread and on tool workers at once. The
// sink's lock guards its map of open spans only; OpenTelemetry is called outside it, but
// for making an instrument (once per metric name). No method lets an exception out.
//
// Limits: a span whose start this sink did not see (a span already running when the sink
// was attached) is created and ended when it ends. A span whose hermes parent is not open
// in this sink (its start unseen, or already ended) is parented by hermes' ids: the same
// trace id, and a parent span id the tracer never issued. An agent's own sink sees every
// start, and hermes ends a parent after its children.
#pragma once

#include <opentelemetry/common/attribute_value.h>
#include <opentelemetry/common/key_value_iterable_view.h>
#include <opentelemetry/common/timestamp.h>
#include <opentelemetry/context/context.h>
#include <opentelemetry/metrics/meter.h>
#include <opentelemetry/metrics/meter_provider.h>
#include <opentelemetry/metrics/provider.h>
#include <opentelemetry/metrics/sync_instruments.h>
#include <opentelemetry/nostd/shared_ptr.h>
#include <opentelemetry/nostd/span.h>
#include <opentelemetry/nostd/string_view.h>
#include <opentelemetry/trace/provider.h>
#include <opentelemetry/trace/span.h>
#include <opentelemetry/trace/span_context.h>
#include <opentelemetry/trace/span_context_kv_iterable.h>
#include <opentelemetry/trace/span_metadata.h>
#include <opentelemetry/trace/span_startoptions.h>
#include <opentelemetry/trace/tracer.h>
#include <opentelemetry/trace/tracer_provider.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "hermes/tracing.hpp"
#include "hermes/version.hpp"

namespace hermes {
namespace opentelemetry_sink_detail {

namespace otel = ::opentelemetry;

inline otel::nostd::string_view view_of(std::string_view text) {
  return otel::nostd::string_view(text.data(), text.size());
}

// hermes attributes as OpenTelemetry key-value pairs. The pairs point into `source` (and
// into the string arrays kept here): both must outlive the call they are passed to.
class AttributeViews {
 public:
  using Pair = std::pair<otel::nostd::string_view, otel::common::AttributeValue>;

  explicit AttributeViews(const std::vector<Attribute>& source) {
    pairs_.reserve(source.size());
    for (const Attribute& attribute : source) {
      pairs_.emplace_back(view_of(attribute.key), convert(attribute.value));
    }
  }
  AttributeViews(const AttributeViews&) = delete;
  AttributeViews& operator=(const AttributeViews&) = delete;

  const std::vector<Pair>& pairs() const { return pairs_; }

 private:
  otel::common::AttributeValue convert(const AttributeValue& value) {
    if (const auto* text = std::get_if<std::string>(&value)) {
      return otel::common::AttributeValue(view_of(*text));
    }
    if (const auto* integer = std::get_if<int64_t>(&value)) {
      return otel::common::AttributeValue(*integer);
    }
    if (const auto* real = std::get_if<double>(&value)) {
      return otel::common::AttributeValue(*real);
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
      return otel::common::AttributeValue(*flag);
    }
    const auto& texts = std::get<std::vector<std::string>>(value);
    std::vector<otel::nostd::string_view>& views = arrays_.emplace_back();
    views.reserve(texts.size());
    for (const std::string& text : texts) views.push_back(view_of(text));
    return otel::common::AttributeValue(
        otel::nostd::span<const otel::nostd::string_view>(views.data(), views.size()));
  }

  std::vector<Pair> pairs_;
  std::deque<std::vector<otel::nostd::string_view>> arrays_;  // Stable element addresses.
};

inline otel::trace::TraceId to_otel(const TraceId& id) {
  return otel::trace::TraceId(otel::nostd::span<const uint8_t, 16>(id.bytes.data(), 16));
}

inline otel::trace::SpanId to_otel(const SpanId& id) {
  return otel::trace::SpanId(otel::nostd::span<const uint8_t, 8>(id.bytes.data(), 8));
}

inline otel::trace::SpanKind to_otel(SpanKind kind) {
  return kind == SpanKind::kClient ? otel::trace::SpanKind::kClient
                                   : otel::trace::SpanKind::kInternal;
}

// The key of a hermes span in the map of open spans.
inline uint64_t key_of(const SpanId& id) {
  uint64_t key = 0;
  for (uint8_t byte : id.bytes) key = key << 8 | byte;
  return key;
}

// Counters of things ({call}, {error}, "1", no unit) count in integers.
inline bool counts_things(std::string_view unit) {
  return unit.empty() || unit == "1" || unit.front() == '{';
}

}  // namespace opentelemetry_sink_detail

class OpenTelemetrySink : public TraceSink {
 public:
  using TracerPtr = ::opentelemetry::nostd::shared_ptr<::opentelemetry::trace::Tracer>;
  using MeterPtr = ::opentelemetry::nostd::shared_ptr<::opentelemetry::metrics::Meter>;

  // Spans to `tracer`, measurements to `meter`. A null tracer or meter means the global
  // provider's (opentelemetry::trace::Provider, opentelemetry::metrics::Provider), named
  // "hermes" with the hermes version, as it is when the sink is made.
  explicit OpenTelemetrySink(TracerPtr tracer = TracerPtr(), MeterPtr meter = MeterPtr())
      : tracer_(tracer.get() != nullptr ? std::move(tracer) : global_tracer()),
        meter_(meter.get() != nullptr ? std::move(meter) : global_meter()),
        steady_offset_nanos_(steady_minus_system()) {}

  const TracerPtr& tracer() const { return tracer_; }
  const MeterPtr& meter() const { return meter_; }

  void on_start(const SpanData& span) override {
    try {
      Open started = start(span);
      if (started.span.get() == nullptr) return;
      std::lock_guard<std::mutex> lock(mu_);
      open_[opentelemetry_sink_detail::key_of(span.context.span_id)] = std::move(started);
    } catch (...) {
    }
  }

  void on_end(const SpanData& span) override {
    namespace otel = ::opentelemetry;
    try {
      Open ended;
      bool seen_start = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = open_.find(opentelemetry_sink_detail::key_of(span.context.span_id));
        if (it != open_.end()) {
          ended = std::move(it->second);
          open_.erase(it);
          seen_start = true;
        }
      }
      if (!seen_start) ended = start(span);  // With every attribute already.
      if (ended.span.get() == nullptr) return;
      if (seen_start) {
        opentelemetry_sink_detail::AttributeViews attributes(span.attributes);
        for (const auto& pair : attributes.pairs()) {
          ended.span->SetAttribute(pair.first, pair.second);
        }
        if (span.name != ended.name) {
          ended.span->UpdateName(opentelemetry_sink_detail::view_of(span.name));
        }
      }
      if (span.status == SpanStatusCode::kError) {
        ended.span->SetStatus(otel::trace::StatusCode::kError,
                              opentelemetry_sink_detail::view_of(span.status_message));
      } else if (span.status == SpanStatusCode::kOk) {
        ended.span->SetStatus(otel::trace::StatusCode::kOk, "");
      }
      otel::trace::EndSpanOptions options;
      if (span.end_time_unix_nano > 0) options.end_steady_time = steady(span.end_time_unix_nano);
      ended.span->End(options);
    } catch (...) {
    }
  }

  void on_metric(const MetricRecord& metric) override {
    namespace otel = ::opentelemetry;
    try {
      if (!std::isfinite(metric.value)) return;
      Instrument instrument = instrument_for(metric);
      opentelemetry_sink_detail::AttributeViews attributes(metric.attributes);
      otel::common::KeyValueIterableView<
          std::vector<opentelemetry_sink_detail::AttributeViews::Pair>>
          view(attributes.pairs());
      const otel::context::Context context{};
      if (metric.kind == MetricKind::kHistogram) {
        if (instrument.histogram) instrument.histogram->Record(metric.value, view, context);
        return;
      }
      if (metric.value < 0) return;  // A counter only goes up.
      if (instrument.integer_counter) {
        instrument.integer_counter->Add(static_cast<uint64_t>(std::llround(metric.value)), view,
                                        context);
      } else if (instrument.real_counter) {
        instrument.real_counter->Add(metric.value, view, context);
      }
    } catch (...) {
    }
  }

  void flush(std::chrono::milliseconds timeout) override {
#if !defined(OPENTELEMETRY_ABI_VERSION_NO) || OPENTELEMETRY_ABI_VERSION_NO < 2
    try {
      if (tracer_.get() != nullptr) tracer_->ForceFlush(timeout);
    } catch (...) {
    }
#else
    (void)timeout;  // The API has no flush: the SDK providers' ForceFlush() is the caller's.
#endif
  }

 private:
  // An OpenTelemetry span this sink started, and the name it started with.
  struct Open {
    ::opentelemetry::nostd::shared_ptr<::opentelemetry::trace::Span> span;
    std::string name;
  };

  // The instruments of one metric name; only the one of its kind is set.
  struct Instrument {
    std::shared_ptr<::opentelemetry::metrics::Counter<uint64_t>> integer_counter;
    std::shared_ptr<::opentelemetry::metrics::Counter<double>> real_counter;
    std::shared_ptr<::opentelemetry::metrics::Histogram<double>> histogram;
  };

  static TracerPtr global_tracer() {
    auto provider = ::opentelemetry::trace::Provider::GetTracerProvider();
    if (provider.get() == nullptr) return TracerPtr();
    return provider->GetTracer("hermes", HERMES_VERSION_STRING);
  }

  static MeterPtr global_meter() {
    auto provider = ::opentelemetry::metrics::Provider::GetMeterProvider();
    if (provider.get() == nullptr) return MeterPtr();
    return provider->GetMeter("hermes", HERMES_VERSION_STRING);
  }

  static int64_t steady_minus_system() {
    const auto steady = std::chrono::steady_clock::now().time_since_epoch();
    const auto system = std::chrono::system_clock::now().time_since_epoch();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(steady).count() -
           std::chrono::duration_cast<std::chrono::nanoseconds>(system).count();
  }

  // hermes' times are the system clock's; the SDK measures a span's duration on the
  // steady clock. One offset, taken when the sink is made, maps the first onto the
  // second, so that every duration is exactly hermes' own.
  ::opentelemetry::common::SteadyTimestamp steady(int64_t unix_nanos) const {
    return ::opentelemetry::common::SteadyTimestamp(
        std::chrono::nanoseconds(unix_nanos + steady_offset_nanos_));
  }

  // Starts the OpenTelemetry span of `span` with its kind, start time, parent and the
  // attributes it has now. Calls into OpenTelemetry without the lock held.
  Open start(const SpanData& span) {
    namespace otel = ::opentelemetry;
    Open started;
    if (tracer_.get() == nullptr) return started;
    otel::trace::StartSpanOptions options;
    options.kind = opentelemetry_sink_detail::to_otel(span.kind);
    if (span.start_time_unix_nano > 0) {
      options.start_system_time =
          otel::common::SystemTimestamp(std::chrono::nanoseconds(span.start_time_unix_nano));
      options.start_steady_time = steady(span.start_time_unix_nano);
    }
    // No hermes parent: the parent is the span current in the OpenTelemetry context.
    if (span.parent_span_id.valid()) options.parent = parent_of(span);
    opentelemetry_sink_detail::AttributeViews attributes(span.attributes);
    otel::common::KeyValueIterableView<std::vector<opentelemetry_sink_detail::AttributeViews::Pair>>
        view(attributes.pairs());
    started.span = tracer_->StartSpan(opentelemetry_sink_detail::view_of(span.name), view,
                                      otel::trace::NullSpanContext(), options);
    started.name = span.name;
    return started;
  }

  // The OpenTelemetry span context of `span`'s parent: the span this sink started for it,
  // or else the parent as hermes names it, a remote one (tracing.traceparent).
  ::opentelemetry::trace::SpanContext parent_of(const SpanData& span) {
    namespace otel = ::opentelemetry;
    otel::nostd::shared_ptr<otel::trace::Span> parent;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = open_.find(opentelemetry_sink_detail::key_of(span.parent_span_id));
      if (it != open_.end()) parent = it->second.span;
    }
    if (parent.get() != nullptr) return parent->GetContext();
    const uint8_t flags = span.context.sampled ? otel::trace::TraceFlags::kIsSampled : 0;
    return otel::trace::SpanContext(opentelemetry_sink_detail::to_otel(span.context.trace_id),
                                    opentelemetry_sink_detail::to_otel(span.parent_span_id),
                                    otel::trace::TraceFlags(flags), true);
  }

  // The instrument of `metric`'s name, made on its first measurement. Making it is the one
  // call into OpenTelemetry under the lock: an instrument is made exactly once.
  Instrument instrument_for(const MetricRecord& metric) {
    namespace otel = ::opentelemetry;
    std::lock_guard<std::mutex> lock(instruments_mu_);
    auto it = instruments_.find(std::string(metric.name));
    if (it != instruments_.end()) return it->second;
    Instrument made;
    if (meter_.get() != nullptr) {
      const auto name = opentelemetry_sink_detail::view_of(metric.name);
      const auto description = opentelemetry_sink_detail::view_of(metric.description);
      const auto unit = opentelemetry_sink_detail::view_of(metric.unit);
      if (metric.kind == MetricKind::kHistogram) {
        made.histogram.reset(meter_->CreateDoubleHistogram(name, description, unit).release());
      } else if (opentelemetry_sink_detail::counts_things(metric.unit)) {
        made.integer_counter.reset(meter_->CreateUInt64Counter(name, description, unit).release());
      } else {
        made.real_counter.reset(meter_->CreateDoubleCounter(name, description, unit).release());
      }
    }
    instruments_.emplace(std::string(metric.name), made);
    return made;
  }

  const TracerPtr tracer_;
  const MeterPtr meter_;
  const int64_t steady_offset_nanos_;

  std::mutex mu_;
  std::unordered_map<uint64_t, Open> open_;  // hermes span id -> the span started for it.

  std::mutex instruments_mu_;
  std::unordered_map<std::string, Instrument> instruments_;
};

}  // namespace hermes
