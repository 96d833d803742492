// OtlpExporter::options_from_environment and from_environment: the OpenTelemetry SDK
// variables, and what a malformed one costs (a warning and its default).
#include "telemetry/otlp_environment.hpp"

#include <doctest/doctest.h>

#include <string>

#include "hermes/otlp_exporter.hpp"
#include "support/scoped_env.hpp"
#include "unit/telemetry/otlp_test_support.hpp"

using hermes::OtlpExporter;
using hermes::OtlpExporterOptions;
using hermes::internal::parse_key_value_list;
using hermes::internal::signal_url;
using hermes::testing::LogCapture;
using hermes::testing::ScopedEnv;

namespace {

const char* const kVariables[] = {
    "OTEL_SDK_DISABLED",
    "OTEL_TRACES_EXPORTER",
    "OTEL_METRICS_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_EXPORTER_OTLP_TIMEOUT",
    "OTEL_BSP_SCHEDULE_DELAY",
    "OTEL_BSP_MAX_QUEUE_SIZE",
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    "OTEL_METRIC_EXPORT_INTERVAL",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
};

// Every OTEL_* variable the exporter reads unset, then the endpoint set.
struct CleanEnv {
  ScopedEnv env;
  CleanEnv() {
    for (const char* name : kVariables) env.unset(name);
  }
};

struct EndpointEnv : CleanEnv {
  EndpointEnv() { env.set("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"); }
};

OtlpExporterOptions read() {
  OtlpExporterOptions options;
  REQUIRE(OtlpExporter::options_from_environment(options));
  return options;
}

bool selected() {
  OtlpExporterOptions options;
  return OtlpExporter::options_from_environment(options);
}

}  // namespace

TEST_CASE("no endpoint means no exporter") {
  CleanEnv clean;
  CHECK_FALSE(selected());
  auto exporter = OtlpExporter::from_environment();
  REQUIRE(exporter.ok());
  CHECK(*exporter == nullptr);
}

TEST_CASE("OTEL_EXPORTER_OTLP_ENDPOINT is the base of both signals' URLs") {
  EndpointEnv env;
  env.env.set("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/");
  auto exporter = OtlpExporter::from_environment();
  REQUIRE(exporter.ok());
  REQUIRE(*exporter != nullptr);
  CHECK((*exporter)->traces_url() == "http://collector:4318/v1/traces");
  CHECK((*exporter)->metrics_url() == "http://collector:4318/v1/metrics");
}

TEST_CASE("a signal URL is the base with exactly one slash before the signal path") {
  CHECK(signal_url("http://h:4318", "/v1/traces") == "http://h:4318/v1/traces");
  CHECK(signal_url("http://h:4318/", "/v1/traces") == "http://h:4318/v1/traces");
  CHECK(signal_url("http://h/otlp//", "/v1/metrics") == "http://h/otlp/v1/metrics");
}

TEST_CASE("per-signal endpoints are used as they are, and alone select their signal") {
  CleanEnv env;
  env.env.set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://traces.example/custom");
  auto exporter = OtlpExporter::from_environment();
  REQUIRE(exporter.ok());
  REQUIRE(*exporter != nullptr);
  CHECK((*exporter)->traces_url() == "https://traces.example/custom");
  CHECK((*exporter)->metrics_url().empty());
}

TEST_CASE("OTEL_SDK_DISABLED=true turns the exporter off") {
  EndpointEnv env;
  env.env.set("OTEL_SDK_DISABLED", "TRUE");
  CHECK_FALSE(selected());
  env.env.set("OTEL_SDK_DISABLED", "false");
  CHECK(selected());
}

TEST_CASE("OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER select the signals") {
  EndpointEnv env;
  env.env.set("OTEL_TRACES_EXPORTER", "none");
  OtlpExporterOptions options = read();
  CHECK_FALSE(options.export_traces);
  CHECK(options.export_metrics);
  env.env.set("OTEL_METRICS_EXPORTER", "none");
  CHECK_FALSE(selected());
  env.env.set("OTEL_TRACES_EXPORTER", "console, otlp");
  CHECK(read().export_traces);
}

TEST_CASE("an exporter name other than otlp turns its signal off with a warning") {
  EndpointEnv env;
  LogCapture log;
  env.env.set("OTEL_TRACES_EXPORTER", "zipkin");
  CHECK_FALSE(read().export_traces);
  CHECK(log.contains("OTEL_TRACES_EXPORTER=zipkin"));
}

TEST_CASE("headers are key=value lists with URL-decoded values, per signal too") {
  EndpointEnv env;
  env.env.set("OTEL_EXPORTER_OTLP_HEADERS", " api-key = secret%3D1 , x-tenant=a%20b ");
  env.env.set("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-tenant=traces");
  env.env.set("OTEL_EXPORTER_OTLP_METRICS_HEADERS", "x-m=1");
  const OtlpExporterOptions options = read();
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(options.headers == Pairs{{"api-key", "secret=1"}, {"x-tenant", "a b"}});
  CHECK(options.traces_headers == Pairs{{"x-tenant", "traces"}});
  CHECK(options.metrics_headers == Pairs{{"x-m", "1"}});
}

TEST_CASE("malformed list entries are skipped with a warning that does not quote them") {
  LogCapture log;
  const auto pairs = parse_key_value_list("good=1,novalue,=empty-key,bad=%0Aline,,ok=%zz",
                                          "OTEL_EXPORTER_OTLP_HEADERS");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(pairs == Pairs{{"good", "1"}, {"ok", "%zz"}});
  CHECK(log.contains("OTEL_EXPORTER_OTLP_HEADERS: skipping malformed entry 2"));
  CHECK_FALSE(log.contains("empty-key"));
}

TEST_CASE("OTEL_SERVICE_NAME wins over service.name in OTEL_RESOURCE_ATTRIBUTES") {
  EndpointEnv env;
  env.env.set("OTEL_RESOURCE_ATTRIBUTES", "service.name=from-attrs,team=ml%2Fops");
  OtlpExporterOptions options = read();
  CHECK(options.service_name == "hermes");
  REQUIRE(options.resource_attributes.size() == 2);
  CHECK(options.resource_attributes[0].key == "service.name");
  CHECK(std::get<std::string>(options.resource_attributes[1].value) == "ml/ops");
  env.env.set("OTEL_SERVICE_NAME", "my-app");
  options = read();
  CHECK(options.service_name == "my-app");
  REQUIRE(options.resource_attributes.size() == 1);
  CHECK(options.resource_attributes[0].key == "team");
}

TEST_CASE("durations and sizes are read in milliseconds and items") {
  EndpointEnv env;
  env.env.set("OTEL_EXPORTER_OTLP_TIMEOUT", "2500");
  env.env.set("OTEL_BSP_SCHEDULE_DELAY", "100");
  env.env.set("OTEL_METRIC_EXPORT_INTERVAL", "15000");
  env.env.set("OTEL_BSP_MAX_QUEUE_SIZE", "64");
  env.env.set("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "16");
  const OtlpExporterOptions options = read();
  CHECK(options.export_timeout == std::chrono::milliseconds(2500));
  CHECK(options.schedule_delay == std::chrono::milliseconds(100));
  CHECK(options.metric_export_interval == std::chrono::milliseconds(15000));
  CHECK(options.max_queue_size == 64);
  CHECK(options.max_export_batch_size == 16);
}

TEST_CASE("a malformed number is a warning and its default") {
  EndpointEnv env;
  LogCapture log;
  const OtlpExporterOptions defaults;
  for (const char* text : {"abc", "-5", "0", "12ms", "1e3", "99999999999999999999"}) {
    CAPTURE(text);
    env.env.set("OTEL_EXPORTER_OTLP_TIMEOUT", text);
    env.env.set("OTEL_BSP_MAX_QUEUE_SIZE", text);
    const OtlpExporterOptions options = read();
    CHECK(options.export_timeout == defaults.export_timeout);
    CHECK(options.max_queue_size == defaults.max_queue_size);
  }
  CHECK(log.contains("OTEL_EXPORTER_OTLP_TIMEOUT: not a whole number"));
  CHECK(log.contains("OTEL_BSP_MAX_QUEUE_SIZE: not a whole number"));
}

TEST_CASE("a batch larger than the queue is cut to the queue size") {
  EndpointEnv env;
  env.env.set("OTEL_BSP_MAX_QUEUE_SIZE", "10");
  env.env.set("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "50");
  CHECK(read().max_export_batch_size == 10);
}

TEST_CASE("a protocol other than http/json is a warning; JSON is sent all the same") {
  EndpointEnv env;
  LogCapture log;
  env.env.set("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
  env.env.set("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
  CHECK(selected());
  CHECK(log.contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc: only http/json is implemented"));
  CHECK(log.contains("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf"));
  env.env.set("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
  env.env.unset("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
  LogCapture quiet;
  CHECK(selected());
  CHECK_FALSE(quiet.contains("only http/json"));
}

TEST_CASE("an endpoint that is not an http(s) URL is an error, not a crash") {
  CleanEnv env;
  for (const char* url : {"collector:4318", "ftp://collector", "http://", "not a url"}) {
    CAPTURE(url);
    env.env.set("OTEL_EXPORTER_OTLP_ENDPOINT", url);
    auto exporter = OtlpExporter::from_environment();
    REQUIRE_FALSE(exporter.ok());
    CHECK(exporter.status().code() == hermes::StatusCode::kInvalidArgument);
  }
}
