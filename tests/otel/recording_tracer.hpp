// A tracer (and tracer provider) implementing the opentelemetry-cpp trace API that keeps
// everything it is given: span names, kinds, parents, times, attributes, statuses, ends.
// Written against the API only, so it works with the stand-in headers and with the real
// library alike. Ids are handed out as the SDK would: a child keeps its parent's trace id,
// a span without a valid parent starts a trace of its own.
#pragma once

#include <opentelemetry/common/attribute_value.h>
#include <opentelemetry/common/key_value_iterable.h>
#include <opentelemetry/nostd/shared_ptr.h>
#include <opentelemetry/nostd/string_view.h>
#include <opentelemetry/nostd/variant.h>
#include <opentelemetry/trace/span.h>
#include <opentelemetry/trace/span_context.h>
#include <opentelemetry/trace/span_context_kv_iterable.h>
#include <opentelemetry/trace/span_metadata.h>
#include <opentelemetry/trace/span_startoptions.h>
#include <opentelemetry/trace/tracer.h>
#include <opentelemetry/trace/tracer_provider.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "hermes/tracing.hpp"

namespace hermes::testing::otel {

namespace api = ::opentelemetry;

inline std::string text_of(api::nostd::string_view view) {
  return std::string(view.data(), view.size());
}

// An attribute value as it arrived: converted back to hermes' types, and the name of the
// OpenTelemetry alternative it came as ("string", "int64", "double", "bool", "string[]",
// or "other").
struct RecordedValue {
  hermes::AttributeValue value;
  std::string type;
};

inline RecordedValue record_value(const api::common::AttributeValue& value) {
  return api::nostd::visit(
      [](const auto& v) -> RecordedValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, api::nostd::string_view>) {
          return {text_of(v), "string"};
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return {v, "int64"};
        } else if constexpr (std::is_same_v<T, double>) {
          return {v, "double"};
        } else if constexpr (std::is_same_v<T, bool>) {
          return {v, "bool"};
        } else if constexpr (std::is_same_v<T, api::nostd::span<const api::nostd::string_view>>) {
          std::vector<std::string> texts;
          for (const auto& text : v) texts.push_back(text_of(text));
          return {texts, "string[]"};
        } else {
          return {std::string(), "other"};
        }
      },
      value);
}

using RecordedAttributes = std::map<std::string, RecordedValue>;

inline RecordedAttributes record_attributes(const api::common::KeyValueIterable& attributes) {
  RecordedAttributes out;
  attributes.ForEachKeyValue(
      [&out](api::nostd::string_view key, api::common::AttributeValue value) noexcept {
        out[text_of(key)] = record_value(value);
        return true;
      });
  return out;
}

inline std::array<uint8_t, 8> span_id_bytes(const api::trace::SpanId& id) {
  std::array<uint8_t, 8> bytes{};
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = id.Id()[i];
  return bytes;
}

inline std::array<uint8_t, 16> trace_id_bytes(const api::trace::TraceId& id) {
  std::array<uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = id.Id()[i];
  return bytes;
}

struct RecordedSpan {
  std::string name;  // The last name (UpdateName).
  std::string start_name;
  api::trace::SpanKind kind = api::trace::SpanKind::kInternal;
  api::trace::SpanContext context = api::trace::SpanContext::GetInvalid();
  // The explicit parent; invalid when the runtime context was to decide.
  api::trace::SpanContext parent = api::trace::SpanContext::GetInvalid();
  int64_t start_system_nanos = 0;
  int64_t start_steady_nanos = 0;
  int64_t end_steady_nanos = 0;
  RecordedAttributes start_attributes;
  RecordedAttributes attributes;  // At the start, then as set.
  api::trace::StatusCode status = api::trace::StatusCode::kUnset;
  std::string status_description;
  int ends = 0;

  // The end on the system clock, as the SDK computes it: start + steady duration.
  int64_t end_system_nanos() const {
    return start_system_nanos + (end_steady_nanos - start_steady_nanos);
  }
  const RecordedValue* find(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
  }
};

class RecordingTracer : public api::trace::Tracer,
                        public std::enable_shared_from_this<RecordingTracer> {
 public:
  api::nostd::shared_ptr<api::trace::Span> StartSpan(
      api::nostd::string_view name, const api::common::KeyValueIterable& attributes,
      const api::trace::SpanContextKeyValueIterable& /*links*/,
      const api::trace::StartSpanOptions& options) noexcept override {
    RecordedSpan span;
    span.name = span.start_name = text_of(name);
    span.kind = options.kind;
    if (api::nostd::holds_alternative<api::trace::SpanContext>(options.parent)) {
      span.parent = api::nostd::get<api::trace::SpanContext>(options.parent);
    }
    span.start_system_nanos = options.start_system_time.time_since_epoch().count();
    span.start_steady_nanos = options.start_steady_time.time_since_epoch().count();
    span.start_attributes = span.attributes = record_attributes(attributes);
    std::lock_guard<std::mutex> lock(mu_);
    ++next_id_;
    std::array<uint8_t, 16> trace{};
    if (span.parent.IsValid()) {
      trace = trace_id_bytes(span.parent.trace_id());
    } else {
      for (std::size_t i = 0; i < 8; ++i) trace[15 - i] = static_cast<uint8_t>(next_id_ >> (8 * i));
      trace[0] = 0xAB;
    }
    std::array<uint8_t, 8> id{};
    for (std::size_t i = 0; i < 8; ++i) id[7 - i] = static_cast<uint8_t>(next_id_ >> (8 * i));
    span.context = api::trace::SpanContext(
        api::trace::TraceId(api::nostd::span<const uint8_t, 16>(trace.data(), 16)),
        api::trace::SpanId(api::nostd::span<const uint8_t, 8>(id.data(), 8)),
        api::trace::TraceFlags(api::trace::TraceFlags::kIsSampled), false);
    spans_.push_back(span);
    return api::nostd::shared_ptr<api::trace::Span>(std::shared_ptr<api::trace::Span>(
        std::make_shared<Span>(shared_from_this(), spans_.size() - 1)));
  }

#if OPENTELEMETRY_ABI_VERSION_NO < 2
  void ForceFlushWithMicroseconds(uint64_t timeout) noexcept override {
    std::lock_guard<std::mutex> lock(mu_);
    flushes_.push_back(timeout);
  }
  void CloseWithMicroseconds(uint64_t /*timeout*/) noexcept override {}
#endif

  std::vector<RecordedSpan> spans() const {
    std::lock_guard<std::mutex> lock(mu_);
    return spans_;
  }
  std::vector<uint64_t> flushes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return flushes_;
  }

 private:
  class Span : public api::trace::Span {
   public:
    Span(std::shared_ptr<RecordingTracer> tracer, std::size_t index)
        : tracer_(std::move(tracer)), index_(index) {}

    void SetAttribute(api::nostd::string_view key,
                      const api::common::AttributeValue& value) noexcept override {
      update([&](RecordedSpan& s) { s.attributes[text_of(key)] = record_value(value); });
    }
    void AddEvent(api::nostd::string_view) noexcept override {}
    void AddEvent(api::nostd::string_view, api::common::SystemTimestamp) noexcept override {}
    void AddEvent(api::nostd::string_view, api::common::SystemTimestamp,
                  const api::common::KeyValueIterable&) noexcept override {}
#if OPENTELEMETRY_ABI_VERSION_NO >= 2
    void AddLink(const api::trace::SpanContext&,
                 const api::common::KeyValueIterable&) noexcept override {}
    void AddLinks(const api::trace::SpanContextKeyValueIterable&) noexcept override {}
#endif
    void SetStatus(api::trace::StatusCode code,
                   api::nostd::string_view description) noexcept override {
      update([&](RecordedSpan& s) {
        s.status = code;
        s.status_description = text_of(description);
      });
    }
    void UpdateName(api::nostd::string_view name) noexcept override {
      update([&](RecordedSpan& s) { s.name = text_of(name); });
    }
    void End(const api::trace::EndSpanOptions& options) noexcept override {
      int64_t end = options.end_steady_time.time_since_epoch().count();
      if (end == 0) {
        end = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
      }
      update([&](RecordedSpan& s) {
        if (s.ends++ == 0) s.end_steady_nanos = end;
      });
    }
    api::trace::SpanContext GetContext() const noexcept override {
      std::lock_guard<std::mutex> lock(tracer_->mu_);
      return tracer_->spans_[index_].context;
    }
    bool IsRecording() const noexcept override {
      return true;
    }

   private:
    template <typename Change>
    void update(Change&& change) {
      std::lock_guard<std::mutex> lock(tracer_->mu_);
      change(tracer_->spans_[index_]);
    }

    std::shared_ptr<RecordingTracer> tracer_;
    std::size_t index_;
  };

  mutable std::mutex mu_;
  std::vector<RecordedSpan> spans_;
  std::vector<uint64_t> flushes_;
  uint64_t next_id_ = 0x1000;
};

// A provider handing out one recording tracer, and noting what it was asked for.
class RecordingTracerProvider : public api::trace::TracerProvider {
 public:
  std::shared_ptr<RecordingTracer> tracer = std::make_shared<RecordingTracer>();
  std::string asked_name;
  std::string asked_version;

#if OPENTELEMETRY_ABI_VERSION_NO >= 2
  api::nostd::shared_ptr<api::trace::Tracer> GetTracer(
      api::nostd::string_view name, api::nostd::string_view version, api::nostd::string_view,
      const api::common::KeyValueIterable*) noexcept override {
    return give(name, version);
  }
#else
  api::nostd::shared_ptr<api::trace::Tracer> GetTracer(api::nostd::string_view name,
                                                       api::nostd::string_view version,
                                                       api::nostd::string_view) noexcept override {
    return give(name, version);
  }
#endif

 private:
  api::nostd::shared_ptr<api::trace::Tracer> give(api::nostd::string_view name,
                                                  api::nostd::string_view version) {
    asked_name = text_of(name);
    asked_version = text_of(version);
    return api::nostd::shared_ptr<api::trace::Tracer>(std::shared_ptr<api::trace::Tracer>(tracer));
  }
};

inline api::nostd::shared_ptr<api::trace::Tracer> as_api(
    const std::shared_ptr<RecordingTracer>& tracer) {
  return api::nostd::shared_ptr<api::trace::Tracer>(std::shared_ptr<api::trace::Tracer>(tracer));
}

}  // namespace hermes::testing::otel
