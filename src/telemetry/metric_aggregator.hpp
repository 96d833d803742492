// Measurements folded into cumulative OTLP series: a counter into a monotonic sum, a
// histogram into explicit-bucket counts, per metric name and attribute set.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "hermes/tracing.hpp"
#include "telemetry/otlp_json.hpp"

namespace hermes::internal {

// A metric keeps at most this many attribute sets; measurements with a new set beyond
// it go to one overflow series (otel.metric.overflow=true), as the OpenTelemetry SDK's
// cardinality limit does.
inline constexpr std::size_t kMaxSeriesPerMetric = 2000;
// And at most this many metrics: hermes records a handful; a name beyond the limit is a
// bug or an attack, and its measurements are refused.
inline constexpr std::size_t kMaxMetrics = 256;

// The explicit bucket bounds for a histogram: the GenAI semantic conventions' for token
// counts and for durations in seconds, else the OpenTelemetry SDK's defaults.
std::vector<double> histogram_bounds(std::string_view name, std::string_view unit);

// Not thread-safe: the exporter holds a mutex around it.
class MetricAggregator {
 public:
  // Adds one measurement. False (and nothing recorded) when its value is not finite, a
  // counter's is negative, its name is already a metric of the other kind, or the metric
  // limit is reached.
  bool record(const MetricRecord& record);

  bool empty() const { return metrics_.empty(); }
  // Every series with its cumulative value, in name order.
  std::vector<MetricSeries> snapshot() const;

 private:
  struct Metric {
    MetricSeries series;                        // points unused here: they are in `points`.
    std::map<std::string, MetricPoint> points;  // By attribute-set key.
  };
  std::map<std::string, Metric, std::less<>> metrics_;
};

}  // namespace hermes::internal
