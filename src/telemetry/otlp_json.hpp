// The OTLP/JSON encoding of spans and aggregated metrics (the ExportTraceServiceRequest
// and ExportMetricsServiceRequest messages), by the protobuf JSON mapping with OTLP's
// exceptions: lowerCamelCase names, trace and span ids as hex (not base64), enums as
// integers, 64-bit integers as decimal strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hermes/tracing.hpp"

namespace hermes::internal {

// Attribute strings (and each string of an array) longer than this are cut, at a
// character boundary, before they are queued.
inline constexpr std::size_t kMaxAttributeValueBytes = std::size_t{64} << 10;
// A span keeps this many attributes (the OpenTelemetry SDK's default limit).
inline constexpr std::size_t kMaxSpanAttributes = 128;
// Names and status messages are cut at this many bytes.
inline constexpr std::size_t kMaxNameBytes = std::size_t{4} << 10;

// A finished span as queued for export: its strings cut to the limits above.
struct QueuedSpan {
  SpanData span;
  uint32_t dropped_attributes = 0;
  std::size_t bytes = 0;  // About what it holds, and what its JSON takes.
};

// A copy of `span` within the limits. Its cost is bounded by the limits too, whatever
// the size of the span's strings.
QueuedSpan bounded_copy(const SpanData& span);
// `value` within the limits.
AttributeValue bounded_value(const AttributeValue& value);

// One aggregated series of a metric: an attribute set and its cumulative value.
struct MetricPoint {
  std::vector<Attribute> attributes;
  // A sum: the total. A histogram: the sum of the samples.
  double sum = 0;
  // Histograms only.
  uint64_t count = 0;
  double min = 0;
  double max = 0;
  std::vector<uint64_t> bucket_counts;  // bounds.size() + 1 buckets.
};

struct MetricSeries {
  std::string name;
  std::string unit;
  std::string description;
  MetricKind kind = MetricKind::kCounter;
  std::vector<double> bounds;  // Histograms: the explicit bucket bounds.
  std::vector<MetricPoint> points;
};

// The resource of every request: service.name, `extra` (a service.name there wins) and
// the telemetry.sdk.* attributes.
std::vector<Attribute> make_resource(const std::string& service_name,
                                     const std::vector<Attribute>& extra);

// The request bodies. Strings that are not UTF-8 are repaired (U+FFFD); doubles that are
// not finite are written as the protobuf JSON mapping's "NaN", "Infinity", "-Infinity".
std::string encode_traces(const std::vector<Attribute>& resource,
                          const std::vector<QueuedSpan>& spans);
std::string encode_metrics(const std::vector<Attribute>& resource,
                           const std::vector<MetricSeries>& metrics, int64_t start_unix_nano,
                           int64_t now_unix_nano);

}  // namespace hermes::internal
