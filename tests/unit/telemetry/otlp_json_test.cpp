// The OTLP/JSON encoding: field names, id and number representations, enum values, and
// what happens to strings that are too long or not UTF-8.
#include "telemetry/otlp_json.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "common/utf8.hpp"
#include "hermes/json.hpp"
#include "hermes/version.hpp"
#include "unit/telemetry/otlp_test_support.hpp"

using hermes::Attribute;
using hermes::Json;
using hermes::MetricKind;
using hermes::SpanData;
using hermes::SpanKind;
using hermes::SpanStatusCode;
using hermes::internal::bounded_copy;
using hermes::internal::encode_metrics;
using hermes::internal::encode_traces;
using hermes::internal::make_resource;
using hermes::internal::MetricPoint;
using hermes::internal::MetricSeries;
using hermes::internal::QueuedSpan;
using hermes::testing::attribute;
using hermes::testing::make_span;

namespace {

Json first_span(const std::string& body) {
  return Json::parse(body).at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0);
}

Json encode_one(const SpanData& span) {
  return first_span(encode_traces(make_resource("svc", {}), {bounded_copy(span)}));
}

}  // namespace

TEST_CASE("a span is encoded with hex ids, integer enums and nanoseconds as strings") {
  SpanData span = make_span("chat gpt-x", 0xab, 0x12, 0x34);
  span.kind = SpanKind::kClient;
  span.status = SpanStatusCode::kError;
  span.status_message = "rate limited";
  const Json out = encode_one(span);
  CHECK(out.at("traceId") == "abababababababababababababababab");
  CHECK(out.at("spanId") == "1212121212121212");
  CHECK(out.at("parentSpanId") == "3434343434343434");
  CHECK(out.at("name") == "chat gpt-x");
  CHECK(out.at("kind") == 3);
  CHECK(out.at("startTimeUnixNano") == "1700000000000000000");
  CHECK(out.at("endTimeUnixNano") == "1700000000500000000");
  CHECK(out.at("status") == Json{{"code", 2}, {"message", "rate limited"}});
  CHECK_FALSE(out.contains("droppedAttributesCount"));
}

TEST_CASE("a root span has no parentSpanId; internal spans are kind 1; unset status is 0") {
  const Json out = encode_one(make_span("invoke_agent hermes", 1, 2));
  CHECK_FALSE(out.contains("parentSpanId"));
  CHECK(out.at("kind") == 1);
  CHECK(out.at("status") == Json{{"code", 0}});
  SpanData ok = make_span("x", 1, 2);
  ok.status = SpanStatusCode::kOk;
  CHECK(encode_one(ok).at("status").at("code") == 1);
}

TEST_CASE("every attribute type has its AnyValue form; integers are decimal strings") {
  SpanData span = make_span("x", 1, 2);
  span.attributes = {{"s", std::string("text")},
                     {"i", int64_t{9007199254740993}},
                     {"d", 0.25},
                     {"b", true},
                     {"a", std::vector<std::string>{"stop", "length"}}};
  const Json attributes = encode_one(span).at("attributes");
  REQUIRE(attributes.size() == 5);
  CHECK(attributes.at(0) == Json{{"key", "s"}, {"value", {{"stringValue", "text"}}}});
  // Above 2^53: a JSON number would lose it.
  CHECK(attribute(attributes, "i") == Json{{"intValue", "9007199254740993"}});
  CHECK(attribute(attributes, "d") == Json{{"doubleValue", 0.25}});
  CHECK(attribute(attributes, "b") == Json{{"boolValue", true}});
  CHECK(attribute(attributes, "a") ==
        Json::parse(
            R"({"arrayValue":{"values":[{"stringValue":"stop"},{"stringValue":"length"}]}})"));
}

TEST_CASE("doubles that are not finite are written as the protobuf JSON mapping's strings") {
  SpanData span = make_span("x", 1, 2);
  span.attributes = {{"nan", std::numeric_limits<double>::quiet_NaN()},
                     {"inf", std::numeric_limits<double>::infinity()},
                     {"-inf", -std::numeric_limits<double>::infinity()}};
  const Json attributes = encode_one(span).at("attributes");
  CHECK(attribute(attributes, "nan") == Json{{"doubleValue", "NaN"}});
  CHECK(attribute(attributes, "inf") == Json{{"doubleValue", "Infinity"}});
  CHECK(attribute(attributes, "-inf") == Json{{"doubleValue", "-Infinity"}});
}

TEST_CASE("strings that are not UTF-8 are repaired, so the body is always valid JSON") {
  SpanData span = make_span(std::string("bad\xff name"), 1, 2);
  span.attributes = {{std::string("k\xc3"), std::string("v\xed\xa0\x80")},
                     {"list", std::vector<std::string>{std::string("\x80")}}};
  span.status_message = std::string("\xfe");
  const std::string body = encode_traces(make_resource("svc", {}), {bounded_copy(span)});
  CHECK(hermes::internal::is_valid_utf8(body));
  const Json out = first_span(body);
  CHECK(out.at("name") == "bad\xef\xbf\xbd name");
  CHECK(out.at("attributes").at(0).at("key") == "k\xef\xbf\xbd");
}

TEST_CASE("attribute strings are cut at 64 KiB on a character boundary, arrays in total") {
  SpanData span = make_span("x", 1, 2);
  std::string long_text(70'000, 'a');
  long_text[65'535] = '\xc3';  // A two-byte character across the limit.
  long_text[65'536] = '\xa9';
  span.attributes = {{"long", long_text},
                     {"list", std::vector<std::string>(3, std::string(40'000, 'b'))}};
  const QueuedSpan queued = bounded_copy(span);
  const auto& cut = std::get<std::string>(queued.span.attributes.at(0).value);
  CHECK(cut.size() == 65'535);
  CHECK(hermes::internal::is_valid_utf8(cut));
  const auto& list = std::get<std::vector<std::string>>(queued.span.attributes.at(1).value);
  std::size_t total = 0;
  for (const std::string& item : list) total += item.size();
  CHECK(total == hermes::internal::kMaxAttributeValueBytes);
}

TEST_CASE("a span keeps 128 attributes and counts the rest as dropped") {
  SpanData span = make_span("x", 1, 2);
  for (int i = 0; i < 200; ++i) span.attributes.push_back({"k" + std::to_string(i), int64_t{i}});
  const Json out = encode_one(span);
  CHECK(out.at("attributes").size() == 128);
  CHECK(out.at("droppedAttributesCount") == 72);
}

TEST_CASE("the resource names the service and the SDK; the scope is hermes") {
  const Json request = Json::parse(
      encode_traces(make_resource("my-app", {{"deployment.environment", std::string("prod")}}),
                    {bounded_copy(make_span("x", 1, 2))}));
  const Json& resource_spans = request.at("resourceSpans").at(0);
  const Json& attributes = resource_spans.at("resource").at("attributes");
  CHECK(attribute(attributes, "service.name") == Json{{"stringValue", "my-app"}});
  CHECK(attribute(attributes, "deployment.environment") == Json{{"stringValue", "prod"}});
  CHECK(attribute(attributes, "telemetry.sdk.name") == Json{{"stringValue", "hermes"}});
  CHECK(attribute(attributes, "telemetry.sdk.language") == Json{{"stringValue", "cpp"}});
  CHECK(attribute(attributes, "telemetry.sdk.version") ==
        Json{{"stringValue", HERMES_VERSION_STRING}});
  CHECK(resource_spans.at("scopeSpans").at(0).at("scope") ==
        Json{{"name", "hermes"}, {"version", HERMES_VERSION_STRING}});
}

TEST_CASE("a service.name among the resource attributes wins over the service name") {
  const auto resource = make_resource("hermes", {{"service.name", std::string("billing")}});
  int names = 0;
  for (const Attribute& a : resource) {
    if (a.key == "service.name") {
      ++names;
      CHECK(std::get<std::string>(a.value) == "billing");
    }
  }
  CHECK(names == 1);
}

TEST_CASE("metrics are cumulative sums and explicit-bucket histograms with string counts") {
  MetricSeries calls{"hermes.model_calls", "{call}", "Model calls", MetricKind::kCounter, {}, {}};
  MetricPoint point;
  point.attributes = {{"gen_ai.request.model", std::string("m")}};
  point.sum = 3;
  calls.points.push_back(point);
  MetricSeries tokens{"gen_ai.client.token.usage", "{token}", "",
                      MetricKind::kHistogram,      {1, 4},    {}};
  MetricPoint histogram;
  histogram.sum = 10;
  histogram.count = 2;
  histogram.min = 3;
  histogram.max = 7;
  histogram.bucket_counts = {0, 1, 1};
  tokens.points.push_back(histogram);
  const Json request = Json::parse(encode_metrics(make_resource("svc", {}), {calls, tokens}, 5, 9));
  const Json& scope = request.at("resourceMetrics").at(0).at("scopeMetrics").at(0);
  CHECK(scope.at("scope").at("name") == "hermes");
  const Json& sum = scope.at("metrics").at(0);
  CHECK(sum.at("name") == "hermes.model_calls");
  CHECK(sum.at("unit") == "{call}");
  CHECK(sum.at("description") == "Model calls");
  CHECK(sum.at("sum").at("aggregationTemporality") == 2);
  CHECK(sum.at("sum").at("isMonotonic") == true);
  const Json& sum_point = sum.at("sum").at("dataPoints").at(0);
  CHECK(sum_point.at("asDouble") == 3.0);
  CHECK(sum_point.at("startTimeUnixNano") == "5");
  CHECK(sum_point.at("timeUnixNano") == "9");
  CHECK(attribute(sum_point.at("attributes"), "gen_ai.request.model") ==
        Json{{"stringValue", "m"}});
  const Json& hist = scope.at("metrics").at(1);
  CHECK_FALSE(hist.contains("description"));
  CHECK(hist.at("histogram").at("aggregationTemporality") == 2);
  const Json& hist_point = hist.at("histogram").at("dataPoints").at(0);
  CHECK(hist_point.at("count") == "2");
  CHECK(hist_point.at("sum") == 10.0);
  CHECK(hist_point.at("min") == 3.0);
  CHECK(hist_point.at("max") == 7.0);
  CHECK(hist_point.at("bucketCounts") == Json::parse(R"(["0","1","1"])"));
  CHECK(hist_point.at("explicitBounds") == Json::parse("[1.0,4.0]"));
}
