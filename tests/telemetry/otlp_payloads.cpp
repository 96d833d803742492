// Writes the OTLP/JSON requests hermes' exporter sends for a representative turn (spans
// of every kind and status, attributes of every type, counters and histograms) into the
// directory named by argv[1], one file per request: traces-<n>.json, metrics-<n>.json.
// tests/telemetry/check_otlp_json.mjs then checks them against the OpenTelemetry JS
// encoders (scripts/otlp-reference-check runs both).
#include <cstdio>
#include <fstream>
#include <string>

#include "hermes/otlp_exporter.hpp"
#include "support/mock_server.hpp"

namespace {

hermes::SpanData span(const char* name, uint8_t id, uint8_t parent) {
  hermes::SpanData s;
  s.context.trace_id.bytes = {0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6,
                              0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36};
  s.context.span_id.bytes = {0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7};
  s.context.span_id.bytes[7] = id;
  if (parent != 0) {
    s.parent_span_id = s.context.span_id;
    s.parent_span_id.bytes[7] = parent;
  }
  s.name = name;
  s.start_time_unix_nano = 1'714'000'000'123'456'789 + id * 1000;
  s.end_time_unix_nano = s.start_time_unix_nano + 2'500'000'000;
  return s;
}

hermes::MetricRecord metric(std::string_view name, hermes::MetricKind kind, std::string_view unit,
                            double value, std::vector<hermes::Attribute> attributes) {
  hermes::MetricRecord m;
  m.name = name;
  m.kind = kind;
  m.unit = unit;
  m.description = "a measurement";
  m.value = value;
  m.attributes = std::move(attributes);
  return m;
}

void emit(hermes::OtlpExporter& exporter) {
  using hermes::Attribute;
  hermes::SpanData turn = span("invoke_agent hermes", 1, 0);
  // Doubles with a fraction: the JS encoder writes a whole-number double as an intValue.
  turn.attributes = {{"gen_ai.operation.name", std::string("invoke_agent")},
                     {"gen_ai.usage.input_tokens", int64_t{1234}},
                     {"hermes.negative", int64_t{-42}},
                     {"hermes.ratio", 0.375},
                     {"hermes.interrupted", false},
                     {"gen_ai.response.finish_reasons", std::vector<std::string>{"stop", "length"}},
                     {"hermes.text", std::string("caf\xc3\xa9 \xe2\x9c\x93 \"quoted\"\n")}};
  turn.status = hermes::SpanStatusCode::kOk;
  hermes::SpanData step = span("hermes.step", 2, 1);
  hermes::SpanData chat = span("chat gpt-4o", 3, 2);
  chat.kind = hermes::SpanKind::kClient;
  chat.status = hermes::SpanStatusCode::kError;
  chat.status_message = "HTTP 429: rate limited";
  chat.attributes = {{"gen_ai.request.model", std::string("gpt-4o")},
                     {"error.type", std::string("rate_limit")}};
  hermes::SpanData tool = span("execute_tool read_file", 4, 2);
  tool.attributes = {{"gen_ai.tool.name", std::string("read_file")}};
  for (const auto* s : {&chat, &tool, &step, &turn}) exporter.on_end(*s);

  using hermes::MetricKind;
  const Attribute input{"gen_ai.token.type", std::string("input")};
  const Attribute model{"gen_ai.request.model", std::string("gpt-4o")};
  exporter.on_metric(
      metric("gen_ai.client.token.usage", MetricKind::kHistogram, "{token}", 1234, {input, model}));
  exporter.on_metric(
      metric("gen_ai.client.token.usage", MetricKind::kHistogram, "{token}", 17, {input, model}));
  exporter.on_metric(
      metric("gen_ai.client.operation.duration", MetricKind::kHistogram, "s", 2.5, {model}));
  exporter.on_metric(metric("hermes.tool_calls", MetricKind::kCounter, "{call}", 1,
                            {{"gen_ai.tool.name", std::string("read_file")}}));
  exporter.on_metric(metric("hermes.model_calls", MetricKind::kCounter, "{call}", 2, {model}));
  exporter.on_metric(metric("hermes.queue", MetricKind::kHistogram, "{item}", 7, {}));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: otlp_payloads DIRECTORY\n");
    return 2;
  }
  hermes::testing::MockServer server;
  hermes::testing::MockResponse ok;
  ok.body = "{}";
  server.set_default(ok);
  hermes::OtlpExporterOptions options;
  options.endpoint = server.url();
  options.service_name = "otlp-reference";
  options.resource_attributes = {{"deployment.environment", std::string("test")}};
  options.schedule_delay = std::chrono::hours(1);
  options.metric_export_interval = std::chrono::hours(1);
  auto exporter = hermes::OtlpExporter::create(options);
  if (!exporter.ok()) {
    std::fprintf(stderr, "otlp_payloads: %s\n", exporter.status().to_string().c_str());
    return 1;
  }
  emit(**exporter);
  (*exporter)->shutdown(std::chrono::seconds(30));
  int traces = 0;
  int metrics = 0;
  for (const auto& request : server.requests()) {
    const bool is_traces = request.path == "/v1/traces";
    const std::string name = std::string(argv[1]) + "/" +
                             (is_traces ? "traces-" + std::to_string(++traces)
                                        : "metrics-" + std::to_string(++metrics)) +
                             ".json";
    std::ofstream(name, std::ios::binary) << request.body;
  }
  if (traces == 0 || metrics == 0) {
    std::fprintf(stderr, "otlp_payloads: expected trace and metric requests, got %d and %d\n",
                 traces, metrics);
    return 1;
  }
  return 0;
}
