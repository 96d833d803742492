// A traced conversation exported over OTLP/HTTP: the agent's spans reach a loopback
// receiver as OTLP JSON with the same tree (parents, attributes, an error status on the
// failed attempt), and its metrics arrive aggregated.
#include <map>

#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// Every span of every POST to /v1/traces.
std::vector<Json> received_spans(const MockServer& receiver) {
  std::vector<Json> spans;
  for (const RecordedRequest& request : receiver.requests()) {
    if (request.path != "/v1/traces") continue;
    const Json body = request.json();
    for (const Json& resource : body.at("resourceSpans")) {
      for (const Json& scope : resource.at("scopeSpans")) {
        for (const Json& span : scope.at("spans")) spans.push_back(span);
      }
    }
  }
  return spans;
}

Json attribute(const Json& span, std::string_view key) {
  for (const Json& a : span.at("attributes")) {
    if (a.at("key") == key) return a.at("value");
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a traced conversation arrives at an OTLP receiver as the expected span tree") {
  MockServer receiver;
  MockResponse ok;
  ok.body = "{}";
  for (int i = 0; i < 8; ++i) receiver.enqueue(ok);

  OtlpExporterOptions exporter_options;
  exporter_options.endpoint = receiver.url();
  exporter_options.service_name = "tracing-test";
  exporter_options.schedule_delay = std::chrono::hours(1);  // Sent at flush.
  exporter_options.metric_export_interval = std::chrono::hours(1);
  auto exporter = OtlpExporter::create(exporter_options);
  REQUIRE_MESSAGE(exporter.ok(), exporter.status().to_string());

  LoopHttpFixture f;
  f.server.enqueue(chat::error(503, "busy"));
  f.server.enqueue(chat::tool_calls({{"call_a", "add", R"({"a":1,"b":2})"}}, true));
  f.server.enqueue(chat::text("3.", true));
  AgentOptions o = f.options();
  o.tracing.sink = *exporter;
  o.failover.backoff.base = std::chrono::milliseconds(1);
  o.failover.backoff.max = std::chrono::milliseconds(1);
  auto agent = f.agent(o);
  REQUIRE(agent->run_conversation("1+2?").completed);
  (*exporter)->flush(std::chrono::seconds(20));

  const std::vector<Json> spans = received_spans(receiver);
  std::map<std::string, Json> by_id;
  for (const Json& s : spans) by_id[s.at("spanId")] = s;
  REQUIRE(by_id.size() == spans.size());
  auto parent_name = [&](const Json& s) -> std::string {
    auto it = by_id.find(s.value("parentSpanId", ""));
    return it == by_id.end() ? "" : it->second.at("name").get<std::string>();
  };
  std::map<std::string, int> counts;
  for (const Json& s : spans) ++counts[s.at("name").get<std::string>() + " <- " + parent_name(s)];
  CHECK(counts["invoke_agent hermes <- "] == 1);
  CHECK(counts["hermes.step <- invoke_agent hermes"] == 2);
  CHECK(counts["chat mock-model <- hermes.step"] == 3);
  CHECK(counts["execute_tool add <- hermes.step"] == 1);

  const std::string trace = spans.at(0).at("traceId");
  for (const Json& s : spans) {
    CHECK(s.at("traceId") == trace);
    CHECK(s.at("startTimeUnixNano").is_string());
  }
  int errors = 0;
  for (const Json& s : spans) {
    if (s.at("name") != "chat mock-model") continue;
    CHECK(s.at("kind") == 3);  // CLIENT
    if (s.contains("status") && s.at("status").value("code", 0) == 2) {
      ++errors;
      CHECK(attribute(s, "error.type") == Json{{"stringValue", "overloaded"}});
      CHECK(attribute(s, "http.response.status_code") == Json{{"intValue", "503"}});
    }
  }
  CHECK(errors == 1);

  // The metrics, aggregated: three model calls, one error.
  double model_calls = 0;
  for (const RecordedRequest& request : receiver.requests()) {
    if (request.path != "/v1/metrics") continue;
    const Json body = request.json();  // Kept: the loop refers into it.
    for (const Json& resource : body.at("resourceMetrics")) {
      for (const Json& scope : resource.at("scopeMetrics")) {
        for (const Json& metric : scope.at("metrics")) {
          if (metric.at("name") != "hermes.model_calls") continue;
          for (const Json& point : metric.at("sum").at("dataPoints")) {
            model_calls += point.at("asDouble").get<double>();
          }
        }
      }
    }
  }
  CHECK(model_calls == 3);
  CHECK((*exporter)->stats().spans_dropped == 0);
}
