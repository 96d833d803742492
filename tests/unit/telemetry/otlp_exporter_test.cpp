// The exporter against a loopback receiver that records every POST: batching, what the
// requests carry, metrics aggregation over time, and receivers that are down, slow or
// refusing. No check here measures time: the bounds are hang guards, and "does not
// block" is shown by ordering (spans accepted while the receiver holds a request).
#include "hermes/otlp_exporter.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "support/mock_server.hpp"
#include "unit/telemetry/otlp_test_support.hpp"

using namespace std::chrono_literals;
using hermes::Json;
using hermes::MetricKind;
using hermes::MetricRecord;
using hermes::OtlpExporter;
using hermes::OtlpExporterOptions;
using hermes::SpanData;
using hermes::testing::accepted;
using hermes::testing::attribute;
using hermes::testing::LogCapture;
using hermes::testing::make_span;
using hermes::testing::MockResponse;
using hermes::testing::MockServer;
using hermes::testing::options_for;
using hermes::testing::recorded_spans;
using hermes::testing::wait_for_requests;

namespace {

std::shared_ptr<OtlpExporter> start(OtlpExporterOptions options) {
  auto exporter = OtlpExporter::create(std::move(options));
  REQUIRE(exporter.ok());
  return *exporter;
}

// A receiver that takes a request and answers long after any export timeout here.
MockResponse hung() {
  MockResponse response = accepted();
  response.first_byte_delay = 60s;
  return response;
}

// A port nothing listens on: a server's, after it is gone.
std::string refused_url() {
  auto server = std::make_unique<MockServer>();
  const std::string url = server->url();
  server.reset();
  return url;
}

MetricRecord metric(std::string_view name, MetricKind kind, std::string_view unit, double value,
                    std::vector<hermes::Attribute> attributes = {}) {
  MetricRecord record;
  record.name = name;
  record.kind = kind;
  record.unit = unit;
  record.value = value;
  record.attributes = std::move(attributes);
  return record;
}

const Json* find_metric(const Json& request, std::string_view name) {
  for (const Json& m : request.at("resourceMetrics").at(0).at("scopeMetrics").at(0).at("metrics")) {
    if (m.at("name") == name) return &m;
  }
  return nullptr;
}

std::vector<hermes::testing::RecordedRequest> requests_to(const MockServer& server,
                                                          std::string_view path) {
  std::vector<hermes::testing::RecordedRequest> out;
  for (auto& request : server.requests()) {
    if (request.path == path) out.push_back(request);
  }
  return out;
}

}  // namespace

TEST_CASE("spans go in batches of max_export_batch_size, one JSON POST per batch") {
  MockServer server;
  server.set_default(accepted());
  OtlpExporterOptions options = options_for(server);
  options.max_export_batch_size = 3;
  options.export_metrics = false;
  options.headers = {{"Authorization", "Bearer t0ken"}, {"X-Tenant", "common"}};
  options.traces_headers = {{"x-tenant", "traces"}};
  auto exporter = start(options);
  for (int i = 1; i <= 7; ++i) exporter->on_end(make_span("s" + std::to_string(i), 1, i));
  // Two full batches go on their own; the seventh span waits for the schedule or a flush.
  REQUIRE(wait_for_requests(server, 2));
  CHECK(server.request_count() == 2);
  exporter->flush(30s);
  const auto requests = server.requests();
  REQUIRE(requests.size() == 3);
  for (const auto& request : requests) {
    CHECK(request.method == "POST");
    CHECK(request.path == "/v1/traces");
    CHECK(request.header("content-type") == "application/json");
    CHECK(request.header("authorization") == "Bearer t0ken");
    CHECK(request.header("x-tenant") == "traces");
  }
  const auto spans = recorded_spans(server);
  REQUIRE(spans.size() == 7);
  for (int i = 0; i < 7; ++i) CHECK(spans[i].at("name") == "s" + std::to_string(i + 1));
  const auto stats = exporter->stats();
  CHECK(stats.spans_queued == 7);
  CHECK(stats.spans_exported == 7);
  CHECK(stats.trace_exports == 3);
  CHECK(stats.trace_export_failures == 0);
  CHECK(stats.spans_dropped == 0);
}

TEST_CASE("a request carries the resource, the scope and the spans with their parents") {
  MockServer server;
  server.set_default(accepted());
  OtlpExporterOptions options = options_for(server);
  options.service_name = "my-app";
  auto exporter = start(options);
  SpanData root = make_span("invoke_agent hermes", 0x0a, 0x01);
  SpanData step = make_span("hermes.step", 0x0a, 0x02, 0x01);
  SpanData chat = make_span("chat m", 0x0a, 0x03, 0x02);
  chat.kind = hermes::SpanKind::kClient;
  chat.attributes = {{"gen_ai.usage.input_tokens", int64_t{12}}};
  exporter->on_end(chat);
  exporter->on_end(step);
  exporter->on_end(root);
  exporter->flush(30s);
  const auto requests = requests_to(server, "/v1/traces");
  REQUIRE(requests.size() == 1);
  const Json body = requests[0].json();
  const Json& resource = body.at("resourceSpans").at(0).at("resource");
  CHECK(attribute(resource.at("attributes"), "service.name") == Json{{"stringValue", "my-app"}});
  const auto spans = recorded_spans(server);
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].at("parentSpanId") == spans[1].at("spanId"));
  CHECK(spans[1].at("parentSpanId") == spans[2].at("spanId"));
  CHECK_FALSE(spans[2].contains("parentSpanId"));
  for (const Json& span : spans) CHECK(span.at("traceId") == "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a");
  CHECK(spans[0].at("kind") == 3);
  CHECK(attribute(spans[0].at("attributes"), "gen_ai.usage.input_tokens") ==
        Json{{"intValue", "12"}});
}

TEST_CASE("spans that are not sampled or have no valid ids are not exported") {
  MockServer server;
  server.set_default(accepted());
  auto exporter = start(options_for(server));
  SpanData unsampled = make_span("unsampled", 1, 1);
  unsampled.context.sampled = false;
  exporter->on_end(unsampled);
  exporter->on_end(make_span("no trace id", 0, 1));
  exporter->on_end(make_span("kept", 1, 2));
  exporter->flush(30s);
  const auto spans = recorded_spans(server);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].at("name") == "kept");
}

TEST_CASE("the schedule delay sends a partial batch without a flush") {
  MockServer server;
  server.set_default(accepted());
  OtlpExporterOptions options = options_for(server);
  options.schedule_delay = 50ms;
  auto exporter = start(options);
  exporter->on_end(make_span("lonely", 1, 1));
  REQUIRE(wait_for_requests(server, 1));
  CHECK(recorded_spans(server).size() == 1);
}

TEST_CASE("metrics are aggregated per name and attribute set and sent cumulatively") {
  MockServer server;
  server.set_default(accepted());
  auto exporter = start(options_for(server));
  const hermes::Attribute input{"gen_ai.token.type", std::string("input")};
  const hermes::Attribute output{"gen_ai.token.type", std::string("output")};
  exporter->on_metric(
      metric("gen_ai.client.token.usage", MetricKind::kHistogram, "{token}", 100, {input}));
  exporter->on_metric(
      metric("gen_ai.client.token.usage", MetricKind::kHistogram, "{token}", 3000, {input}));
  exporter->on_metric(
      metric("gen_ai.client.token.usage", MetricKind::kHistogram, "{token}", 20, {output}));
  exporter->on_metric(metric("hermes.model_calls", MetricKind::kCounter, "{call}", 1));
  exporter->on_metric(metric("hermes.model_calls", MetricKind::kCounter, "{call}", 1));
  exporter->on_metric(
      metric("hermes.model_calls", MetricKind::kCounter, "{call}", -1));  // Refused.
  exporter->flush(30s);
  auto requests = requests_to(server, "/v1/metrics");
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].header("content-type") == "application/json");
  const Json first = requests[0].json();
  REQUIRE(first.is_object());
  const Json* calls = find_metric(first, "hermes.model_calls");
  REQUIRE(calls != nullptr);
  CHECK(calls->at("unit") == "{call}");
  CHECK(calls->at("sum").at("isMonotonic") == true);
  CHECK(calls->at("sum").at("aggregationTemporality") == 2);
  CHECK(calls->at("sum").at("dataPoints").at(0).at("asDouble") == 2.0);
  const Json* tokens = find_metric(first, "gen_ai.client.token.usage");
  REQUIRE(tokens != nullptr);
  const Json& points = tokens->at("histogram").at("dataPoints");
  REQUIRE(points.size() == 2);
  const Json& in =
      attribute(points[0].at("attributes"), "gen_ai.token.type") == Json{{"stringValue", "input"}}
          ? points[0]
          : points[1];
  CHECK(in.at("count") == "2");
  CHECK(in.at("sum") == 3100.0);
  CHECK(in.at("min") == 100.0);
  CHECK(in.at("max") == 3000.0);
  CHECK(in.at("explicitBounds").size() == 14);
  // 100 is in (64, 256], 3000 in (1024, 4096].
  Json expected = Json::array();
  for (int i = 0; i < 15; ++i) expected.push_back(i == 4 || i == 6 ? "1" : "0");
  CHECK(in.at("bucketCounts") == expected);

  // The next export holds the totals since the start, with the same start time.
  exporter->on_metric(metric("hermes.model_calls", MetricKind::kCounter, "{call}", 3));
  exporter->flush(30s);
  requests = requests_to(server, "/v1/metrics");
  REQUIRE(requests.size() == 2);
  const Json second = requests[1].json();
  const Json* later = find_metric(second, "hermes.model_calls");
  REQUIRE(later != nullptr);
  const Json& point = later->at("sum").at("dataPoints").at(0);
  const Json& first_point = calls->at("sum").at("dataPoints").at(0);
  CHECK(point.at("asDouble") == 5.0);
  CHECK(point.at("startTimeUnixNano") == first_point.at("startTimeUnixNano"));
  CHECK(std::stoll(point.at("timeUnixNano").get<std::string>()) >=
        std::stoll(first_point.at("timeUnixNano").get<std::string>()));
  const auto stats = exporter->stats();
  CHECK(stats.metric_records == 6);
  CHECK(stats.metric_records_dropped == 1);
  CHECK(stats.metric_exports == 2);
}

TEST_CASE("without measurements no metrics request is sent") {
  MockServer server;
  server.set_default(accepted());
  auto exporter = start(options_for(server));
  exporter->flush(30s);
  CHECK(server.request_count() == 0);
}

TEST_CASE("a receiver that is down costs export failures, not spans accepted") {
  LogCapture log;
  OtlpExporterOptions options;
  options.endpoint = refused_url();
  options.schedule_delay = 1h;
  options.export_timeout = 5s;
  options.max_export_batch_size = 10;
  auto exporter = start(options);
  for (int i = 1; i <= 25; ++i) exporter->on_end(make_span("s", 1, i));
  exporter->on_metric(metric("hermes.errors", MetricKind::kCounter, "{error}", 1));
  exporter->flush(60s);
  const auto stats = exporter->stats();
  CHECK(stats.spans_queued == 25);
  CHECK(stats.spans_dropped == 0);
  CHECK(stats.spans_exported == 0);
  CHECK(stats.spans_failed == 25);
  CHECK(stats.trace_export_failures == 3);
  CHECK(stats.metric_export_failures == 1);
  // Logged once, not once per batch.
  CHECK(log.contains("OTLP export of spans"));
}

TEST_CASE("spans are accepted while the receiver holds a request, and the hold times out") {
  MockServer server;
  server.set_default(hung());
  OtlpExporterOptions options = options_for(server);
  options.export_timeout = 3s;
  options.max_export_batch_size = 1;
  options.export_metrics = false;
  auto exporter = start(options);
  exporter->on_end(make_span("first", 1, 1));
  REQUIRE(wait_for_requests(server, 1));  // The thread is now inside the POST.
  for (int i = 2; i <= 51; ++i) exporter->on_end(make_span("more", 1, i));
  auto stats = exporter->stats();
  CHECK(stats.spans_queued == 51);
  CHECK(stats.spans_dropped == 0);
  // The first POST is still unanswered: it fails only by its timeout.
  CHECK(stats.trace_export_failures + stats.trace_exports == 0);
  exporter->shutdown(1s);
  stats = exporter->stats();
  CHECK(stats.spans_exported == 0);
  CHECK(stats.trace_export_failures >= 1);
}

TEST_CASE("the queue never holds more than max_queue_size spans; the rest are counted dropped") {
  MockServer server;
  server.set_default(hung());
  OtlpExporterOptions options = options_for(server);
  options.max_queue_size = 10;
  options.max_export_batch_size = 10;
  options.export_metrics = false;
  auto exporter = start(options);
  for (int i = 0; i < 10; ++i) exporter->on_end(make_span("batch", 1, i + 1));
  REQUIRE(wait_for_requests(server, 1));  // Those ten are taken; the receiver holds them.
  for (int i = 0; i < 100; ++i) exporter->on_end(make_span("flood", 2, i + 1));
  const auto stats = exporter->stats();
  CHECK(stats.spans_queued == 20);
  CHECK(stats.spans_dropped == 90);
  // Shutting down with a full queue and a hung receiver gives up rather than hangs.
  exporter->shutdown(500ms);
  const auto after = exporter->stats();
  CHECK(after.spans_exported == 0);
  exporter->on_end(make_span("late", 3, 1));
  CHECK(exporter->stats().spans_dropped == 91);
}

TEST_CASE("shutdown delivers the spans still queued") {
  MockServer server;
  server.set_default(accepted());
  auto exporter = start(options_for(server));
  for (int i = 1; i <= 5; ++i) exporter->on_end(make_span("pending", 1, i));
  exporter->shutdown();
  CHECK(recorded_spans(server).size() == 5);
  exporter->shutdown();  // Idempotent.
  exporter->flush(1s);   // After shutdown: returns at once.
  CHECK(exporter->stats().spans_exported == 5);
}

TEST_CASE("the destructor sends what is queued") {
  MockServer server;
  server.set_default(accepted());
  {
    auto exporter = start(options_for(server));
    exporter->on_end(make_span("last words", 1, 1));
  }
  CHECK(recorded_spans(server).size() == 1);
}

TEST_CASE("a 503 is retried once; a 400 is not") {
  MockServer server;
  MockResponse unavailable;
  unavailable.status = 503;
  server.enqueue({unavailable, accepted()});
  OtlpExporterOptions options = options_for(server);
  options.export_metrics = false;
  auto exporter = start(options);
  exporter->on_end(make_span("retried", 1, 1));
  exporter->flush(30s);
  CHECK(server.request_count() == 2);
  CHECK(exporter->stats().spans_exported == 1);
  CHECK(exporter->stats().trace_export_failures == 0);

  MockResponse bad;
  bad.status = 400;
  bad.body = R"({"code":3,"message":"bad"})";
  server.enqueue(bad);
  server.enqueue(accepted());
  exporter->on_end(make_span("refused", 1, 2));
  exporter->flush(30s);
  CHECK(server.request_count() == 3);
  CHECK(exporter->stats().spans_failed == 1);
  CHECK(exporter->stats().trace_export_failures == 1);
}

TEST_CASE("create refuses options it cannot honour, naming the problem") {
  OtlpExporterOptions options;
  CHECK(OtlpExporter::create(options).status().message().find("nothing to export") !=
        std::string::npos);
  options.endpoint = "localhost:4318";
  CHECK_FALSE(OtlpExporter::create(options).ok());
  options.endpoint = "http://localhost:4318";
  options.max_export_batch_size = 4096;  // Above the queue.
  CHECK_FALSE(OtlpExporter::create(options).ok());
  options.max_export_batch_size = 512;
  options.schedule_delay = 0ms;
  CHECK_FALSE(OtlpExporter::create(options).ok());
  options.schedule_delay = 5s;
  options.headers = {{"X-Injected", "a\r\nHost: evil"}};
  CHECK(OtlpExporter::create(options).status().message().find("X-Injected") != std::string::npos);
  options.headers = {{"Bad Name", "v"}};
  CHECK_FALSE(OtlpExporter::create(options).ok());
  options.headers.clear();
  options.export_traces = false;
  options.metrics_endpoint = "https://metrics.example/otlp/v1/metrics";
  auto exporter = OtlpExporter::create(options);
  REQUIRE(exporter.ok());
  CHECK((*exporter)->traces_url().empty());
  CHECK((*exporter)->metrics_url() == "https://metrics.example/otlp/v1/metrics");
}

TEST_CASE("large spans are sent in requests of a few MiB, not one huge body") {
  MockServer server;
  server.set_default(accepted());
  OtlpExporterOptions options = options_for(server);
  options.export_metrics = false;
  auto exporter = start(options);
  SpanData big = make_span("big", 1, 1);
  big.attributes = {{"gen_ai.input.messages", std::string(64 * 1024, 'x')}};
  for (int i = 1; i <= 100; ++i) {
    big.context.span_id.bytes[7] = static_cast<uint8_t>(i);
    exporter->on_end(big);
  }
  exporter->flush(30s);
  CHECK(server.request_count() == 2);
  for (const auto& request : server.requests()) CHECK(request.body.size() < (5u << 20));
  CHECK(recorded_spans(server).size() == 100);
}

TEST_CASE("the queue is bounded in bytes too: big spans are dropped before memory runs out") {
  MockServer server;
  server.set_default(hung());
  OtlpExporterOptions options = options_for(server);
  options.export_metrics = false;
  options.max_export_batch_size = 2048;
  auto exporter = start(options);
  SpanData big = make_span("big", 1, 1);
  big.attributes = {{"a", std::string(64 * 1024, 'x')}, {"b", std::string(64 * 1024, 'y')}};
  for (int i = 0; i < 1000; ++i) exporter->on_end(big);
  const auto stats = exporter->stats();
  CHECK(stats.spans_dropped > 0);
  CHECK(stats.spans_queued + stats.spans_dropped == 1000);
  CHECK(stats.spans_queued * 128 * 1024 <= (64u << 20));
  exporter->shutdown(500ms);
}
