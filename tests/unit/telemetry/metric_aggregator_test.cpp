// Measurements folded into cumulative series: one series per metric and attribute set,
// the GenAI conventions' buckets, and what is refused.
#include "telemetry/metric_aggregator.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using hermes::Attribute;
using hermes::MetricKind;
using hermes::MetricRecord;
using hermes::internal::histogram_bounds;
using hermes::internal::MetricAggregator;
using hermes::internal::MetricSeries;

namespace {

MetricRecord counter(std::string_view name, double value, std::vector<Attribute> attributes = {}) {
  MetricRecord record;
  record.name = name;
  record.kind = MetricKind::kCounter;
  record.unit = "{call}";
  record.value = value;
  record.attributes = std::move(attributes);
  return record;
}

MetricRecord histogram(std::string_view name, std::string_view unit, double value) {
  MetricRecord record;
  record.name = name;
  record.kind = MetricKind::kHistogram;
  record.unit = unit;
  record.value = value;
  return record;
}

}  // namespace

TEST_CASE("counter increments with the same attribute set, in any order, add up in one series") {
  MetricAggregator aggregator;
  CHECK(aggregator.record(
      counter("hermes.tool_calls", 1, {{"gen_ai.tool.name", std::string("read")}, {"ok", true}})));
  CHECK(aggregator.record(
      counter("hermes.tool_calls", 2, {{"ok", true}, {"gen_ai.tool.name", std::string("read")}})));
  CHECK(aggregator.record(
      counter("hermes.tool_calls", 5, {{"gen_ai.tool.name", std::string("write")}, {"ok", true}})));
  const std::vector<MetricSeries> series = aggregator.snapshot();
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "hermes.tool_calls");
  CHECK(series[0].unit == "{call}");
  REQUIRE(series[0].points.size() == 2);
  double read = 0, write = 0;
  for (const auto& point : series[0].points) {
    const auto& tool = std::get<std::string>(point.attributes.at(0).value);
    (tool == "read" ? read : write) = point.sum;
  }
  CHECK(read == 3);
  CHECK(write == 5);
}

TEST_CASE("attribute values of different types are different series") {
  MetricAggregator aggregator;
  aggregator.record(counter("c", 1, {{"k", std::string("1")}}));
  aggregator.record(counter("c", 1, {{"k", int64_t{1}}}));
  aggregator.record(counter("c", 1, {{"k", 1.0}}));
  CHECK(aggregator.snapshot().at(0).points.size() == 3);
}

TEST_CASE("token usage uses the GenAI token buckets, with inclusive upper bounds") {
  MetricAggregator aggregator;
  for (double v : {1.0, 3.0, 4.0, 5.0, 100'000'000.0}) {
    CHECK(aggregator.record(histogram("gen_ai.client.token.usage", "{token}", v)));
  }
  const MetricSeries series = aggregator.snapshot().at(0);
  CHECK(series.bounds == histogram_bounds("gen_ai.client.token.usage", "{token}"));
  CHECK(series.bounds.size() == 14);
  CHECK(series.bounds.back() == 67108864);
  const auto& point = series.points.at(0);
  REQUIRE(point.bucket_counts.size() == 15);
  CHECK(point.bucket_counts[0] == 1);   // (-inf, 1]
  CHECK(point.bucket_counts[1] == 2);   // (1, 4]
  CHECK(point.bucket_counts[2] == 1);   // (4, 16]
  CHECK(point.bucket_counts[14] == 1);  // (67108864, +inf)
  CHECK(point.count == 5);
  CHECK(point.sum == 100'000'013.0);
  CHECK(point.min == 1);
  CHECK(point.max == 100'000'000);
}

TEST_CASE("durations in seconds use the GenAI duration buckets, others the SDK defaults") {
  const auto seconds = histogram_bounds("hermes.step.duration", "s");
  CHECK(seconds.front() == 0.01);
  CHECK(seconds.back() == 81.92);
  CHECK(seconds.size() == 14);
  const auto other = histogram_bounds("queue.depth", "{item}");
  CHECK(other == std::vector<double>{0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000,
                                     7500, 10000});
}

TEST_CASE("values that cannot be aggregated are refused and change nothing") {
  MetricAggregator aggregator;
  CHECK_FALSE(aggregator.record(counter("c", std::numeric_limits<double>::quiet_NaN())));
  CHECK_FALSE(aggregator.record(counter("c", std::numeric_limits<double>::infinity())));
  CHECK_FALSE(aggregator.record(counter("c", -1)));  // A counter only grows.
  CHECK(aggregator.empty());
  CHECK(aggregator.record(counter("c", 1)));
  CHECK_FALSE(aggregator.record(histogram("c", "s", 1)));  // The name is a counter's.
  CHECK(aggregator.record(histogram("h", "s", -1)));       // A histogram takes any sample.
  CHECK(aggregator.snapshot().size() == 2);
}

TEST_CASE("attribute sets beyond the limit fold into one overflow series") {
  MetricAggregator aggregator;
  for (int i = 0; i < 2500; ++i) {
    CHECK(aggregator.record(counter("c", 1, {{"i", int64_t{i}}})));
  }
  const auto points = aggregator.snapshot().at(0).points;
  CHECK(points.size() == hermes::internal::kMaxSeriesPerMetric);
  double overflow = 0;
  for (const auto& point : points) {
    if (point.attributes.size() == 1 && point.attributes[0].key == "otel.metric.overflow") {
      overflow = point.sum;
    }
  }
  CHECK(overflow == 2500 - (hermes::internal::kMaxSeriesPerMetric - 1));
}

TEST_CASE("the number of metrics is bounded") {
  MetricAggregator aggregator;
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back("m" + std::to_string(i));
  int accepted = 0;
  for (const std::string& name : names) accepted += aggregator.record(counter(name, 1)) ? 1 : 0;
  CHECK(accepted == static_cast<int>(hermes::internal::kMaxMetrics));
}
