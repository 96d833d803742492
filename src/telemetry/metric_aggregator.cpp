#include "telemetry/metric_aggregator.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace hermes::internal {
namespace {

// gen_ai.client.token.usage's advised boundaries: powers of 4 up to 4^13.
const std::vector<double> kTokenBounds = {
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};
// gen_ai.client.operation.duration's (seconds): 10 ms doubling up to 81.92 s.
const std::vector<double> kSecondsBounds = {0.01, 0.02, 0.04, 0.08,  0.16,  0.32,  0.64,
                                            1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
// The OpenTelemetry SDK's default explicit bucket boundaries.
const std::vector<double> kDefaultBounds = {0,   5,   10,   25,   50,   75,   100,  250,
                                            500, 750, 1000, 2500, 5000, 7500, 10000};

void append_field(std::string& key, std::string_view text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

// A byte string equal for equal attribute sets, whatever their order: sorted by key, the
// first of a repeated key kept, every part length-prefixed so that no two sets collide.
std::string attribute_set_key(std::vector<Attribute>& attributes) {
  std::stable_sort(attributes.begin(), attributes.end(),
                   [](const Attribute& a, const Attribute& b) { return a.key < b.key; });
  attributes.erase(
      std::unique(attributes.begin(), attributes.end(),
                  [](const Attribute& a, const Attribute& b) { return a.key == b.key; }),
      attributes.end());
  std::string key;
  for (const Attribute& attribute : attributes) {
    append_field(key, attribute.key);
    key += static_cast<char>('0' + attribute.value.index());
    std::visit(
        [&key](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string>) {
            append_field(key, v);
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            key += std::to_string(v.size());
            for (const std::string& item : v) append_field(key, item);
          } else if constexpr (std::is_same_v<T, bool>) {
            key += v ? 't' : 'f';
          } else {
            char bytes[sizeof(T)];
            std::memcpy(bytes, &v, sizeof(T));
            key.append(bytes, sizeof(T));
          }
        },
        attribute.value);
  }
  return key;
}

MetricPoint new_point(std::vector<Attribute> attributes, const MetricSeries& series) {
  MetricPoint point;
  point.attributes = std::move(attributes);
  if (series.kind == MetricKind::kHistogram)
    point.bucket_counts.assign(series.bounds.size() + 1, 0);
  return point;
}

void add(MetricPoint& point, const MetricSeries& series, double value) {
  point.sum += value;
  if (series.kind != MetricKind::kHistogram) return;
  point.min = point.count == 0 ? value : std::min(point.min, value);
  point.max = point.count == 0 ? value : std::max(point.max, value);
  ++point.count;
  // Bucket i holds (bounds[i-1], bounds[i]]: upper bounds are inclusive in OTLP.
  const auto bucket = std::lower_bound(series.bounds.begin(), series.bounds.end(), value);
  ++point.bucket_counts[static_cast<std::size_t>(bucket - series.bounds.begin())];
}

}  // namespace

std::vector<double> histogram_bounds(std::string_view name, std::string_view unit) {
  if (name == "gen_ai.client.token.usage") return kTokenBounds;
  if (unit == "s") return kSecondsBounds;
  return kDefaultBounds;
}

bool MetricAggregator::record(const MetricRecord& record) {
  if (!std::isfinite(record.value)) return false;
  if (record.kind == MetricKind::kCounter && record.value < 0) return false;
  const std::string_view name = record.name.substr(0, kMaxNameBytes);
  auto it = metrics_.find(name);
  if (it == metrics_.end()) {
    if (metrics_.size() >= kMaxMetrics) return false;
    Metric metric;
    metric.series.name = std::string(name);
    metric.series.unit = std::string(record.unit.substr(0, kMaxNameBytes));
    metric.series.description = std::string(record.description.substr(0, kMaxNameBytes));
    metric.series.kind = record.kind;
    if (record.kind == MetricKind::kHistogram) {
      metric.series.bounds = histogram_bounds(record.name, record.unit);
    }
    it = metrics_.emplace(std::string(name), std::move(metric)).first;
  } else if (it->second.series.kind != record.kind) {
    return false;
  }
  Metric& metric = it->second;
  std::vector<Attribute> attributes;
  // As many as a span keeps; measurements carry two or three.
  const std::size_t kept = std::min(record.attributes.size(), kMaxSpanAttributes);
  attributes.reserve(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    const Attribute& attribute = record.attributes[i];
    attributes.push_back({attribute.key.substr(0, kMaxNameBytes), bounded_value(attribute.value)});
  }
  std::string key = attribute_set_key(attributes);
  auto point = metric.points.find(key);
  if (point == metric.points.end()) {
    if (metric.points.size() >= kMaxSeriesPerMetric - 1) {
      attributes = {{"otel.metric.overflow", true}};
      key = attribute_set_key(attributes);
      point = metric.points.find(key);
    }
    if (point == metric.points.end()) {
      point = metric.points.emplace(std::move(key), new_point(std::move(attributes), metric.series))
                  .first;
    }
  }
  add(point->second, metric.series, record.value);
  return true;
}

std::vector<MetricSeries> MetricAggregator::snapshot() const {
  std::vector<MetricSeries> out;
  out.reserve(metrics_.size());
  for (const auto& [name, metric] : metrics_) {
    MetricSeries series = metric.series;
    series.points.reserve(metric.points.size());
    for (const auto& [key, point] : metric.points) series.points.push_back(point);
    out.push_back(std::move(series));
  }
  return out;
}

}  // namespace hermes::internal
