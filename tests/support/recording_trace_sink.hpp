// A TraceSink that keeps every span and measurement it receives, for tests to inspect
// the span tree and the metrics a run produced.
#pragma once

#include <algorithm>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/tracing.hpp"

namespace hermes::testing {

class RecordingTraceSink : public TraceSink {
 public:
  struct Measurement {
    std::string name;
    MetricKind kind;
    double value;
    std::vector<Attribute> attributes;
  };

  void on_start(const SpanData& span) override {
    std::lock_guard<std::mutex> lock(mu_);
    started_.push_back(span);
  }
  void on_end(const SpanData& span) override {
    std::lock_guard<std::mutex> lock(mu_);
    ended_.push_back(span);
  }
  void on_metric(const MetricRecord& metric) override {
    std::lock_guard<std::mutex> lock(mu_);
    metrics_.push_back({std::string(metric.name), metric.kind, metric.value, metric.attributes});
  }

  std::vector<SpanData> started() const {
    std::lock_guard<std::mutex> lock(mu_);
    return started_;
  }
  // Finished spans in the order they ended.
  std::vector<SpanData> spans() const {
    std::lock_guard<std::mutex> lock(mu_);
    return ended_;
  }
  std::vector<Measurement> metrics() const {
    std::lock_guard<std::mutex> lock(mu_);
    return metrics_;
  }

  // Finished spans named `name` (or starting with it, when `prefix`), in start order.
  std::vector<SpanData> named(std::string_view name, bool prefix = false) const {
    std::vector<SpanData> out;
    for (const SpanData& s : spans()) {
      if (prefix ? s.name.rfind(name, 0) == 0 : s.name == name) out.push_back(s);
    }
    std::sort(out.begin(), out.end(), [](const SpanData& a, const SpanData& b) {
      return a.start_time_unix_nano < b.start_time_unix_nano;
    });
    return out;
  }
  // The finished children of `parent`.
  std::vector<SpanData> children_of(const SpanData& parent, std::string_view name = {},
                                    bool prefix = false) const {
    std::vector<SpanData> out;
    for (const SpanData& s : named(name, true)) {
      if (s.parent_span_id != parent.context.span_id) continue;
      if (!prefix && !name.empty() && s.name != name) continue;
      out.push_back(s);
    }
    return out;
  }
  // The sum of the measurements named `name`.
  double total(std::string_view name) const {
    double sum = 0;
    for (const Measurement& m : metrics()) {
      if (m.name == name) sum += m.value;
    }
    return sum;
  }
  std::size_t count(std::string_view name) const {
    std::size_t n = 0;
    for (const Measurement& m : metrics()) n += m.name == name ? 1 : 0;
    return n;
  }

 private:
  mutable std::mutex mu_;
  std::vector<SpanData> started_;
  std::vector<SpanData> ended_;
  std::vector<Measurement> metrics_;
};

// The string value of attribute `key`, or "" when absent or not a string.
inline std::string string_attribute(const SpanData& span, std::string_view key) {
  const AttributeValue* v = span.find(key);
  return v && std::holds_alternative<std::string>(*v) ? std::get<std::string>(*v) : "";
}
// The integer value of attribute `key`, or -1.
inline int64_t int_attribute(const SpanData& span, std::string_view key) {
  const AttributeValue* v = span.find(key);
  return v && std::holds_alternative<int64_t>(*v) ? std::get<int64_t>(*v) : -1;
}

}  // namespace hermes::testing
