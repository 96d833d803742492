// hermes::OpenTelemetrySink under a real agent: a conversation over the HTTP path with a
// failed attempt, its retry and two tool calls. Every span hermes reports (recorded
// beside the adapter) must come out of the OpenTelemetry API as one span with the same
// name, kind, times, attributes and status, under the OpenTelemetry span of its hermes
// parent; every measurement must reach an instrument of its name.
#include <map>

#include "hermes/opentelemetry_sink.hpp"
#include "integration/loop_http_fixture.hpp"
#include "otel/recording_meter.hpp"
#include "otel/recording_tracer.hpp"
#include "otel/tee_sink.hpp"
#include "support/recording_trace_sink.hpp"

using namespace hermes;
using namespace hermes::testing;
using namespace hermes::testing::otel;

namespace {

struct Traced {
  std::shared_ptr<RecordingTracer> tracer = std::make_shared<RecordingTracer>();
  std::shared_ptr<RecordingMeter> meter = std::make_shared<RecordingMeter>();
  std::shared_ptr<RecordingTraceSink> hermes_spans = std::make_shared<RecordingTraceSink>();
  std::shared_ptr<OpenTelemetrySink> adapter =
      std::make_shared<OpenTelemetrySink>(as_api(tracer), as_api(meter));

  AgentOptions options(LoopHttpFixture& f) {
    AgentOptions o = f.options();
    o.tracing.sink = std::make_shared<TeeSink>(hermes_spans, adapter);
    o.failover.backoff.base = std::chrono::milliseconds(1);
    o.failover.backoff.max = std::chrono::milliseconds(1);
    return o;
  }

  // The OpenTelemetry span made for each hermes span, matched by name and start time.
  std::map<std::array<uint8_t, 8>, RecordedSpan> by_hermes_id() const {
    std::map<std::array<uint8_t, 8>, RecordedSpan> out;
    const auto otel_spans = tracer->spans();
    for (const SpanData& h : hermes_spans->spans()) {
      std::vector<RecordedSpan> matches;
      for (const RecordedSpan& o : otel_spans) {
        if (o.start_name == h.name && o.start_system_nanos == h.start_time_unix_nano) {
          matches.push_back(o);
        }
      }
      REQUIRE_MESSAGE(matches.size() == 1, h.name);
      out[h.context.span_id.bytes] = matches[0];
    }
    return out;
  }
};

bool same_value(const RecordedValue& otel, const hermes::AttributeValue& value) {
  return otel.value == value;
}

}  // namespace

TEST_CASE("a conversation's spans reach the OpenTelemetry API as the same tree") {
  LoopHttpFixture f;
  f.server.enqueue(chat::error(500, "the upstream fell over"));
  f.server.enqueue(chat::tool_calls(
      {{"call_a", "add", R"({"a":1,"b":2})"}, {"call_b", "add", R"({"a":3,"b":4})"}}, true));
  f.server.enqueue(chat::text("3 and 7.", true));
  Traced t;
  auto agent = f.agent(t.options(f));
  ConversationResult r = agent->run_conversation("What are 1+2 and 3+4?");
  REQUIRE_MESSAGE(r.completed, r.error);

  const auto hermes_spans = t.hermes_spans->spans();
  const auto otel_spans = t.tracer->spans();
  REQUIRE(otel_spans.size() == hermes_spans.size());
  const auto otel_of = t.by_hermes_id();

  for (const SpanData& h : hermes_spans) {
    CAPTURE(h.name);
    const RecordedSpan& o = otel_of.at(h.context.span_id.bytes);
    CHECK(o.ends == 1);
    CHECK(o.name == h.name);
    CHECK(o.kind == (h.kind == SpanKind::kClient ? api::trace::SpanKind::kClient
                                                 : api::trace::SpanKind::kInternal));
    CHECK(o.end_system_nanos() == h.end_time_unix_nano);
    // The parent: the OpenTelemetry span of the hermes parent, in its trace.
    if (h.parent_span_id.valid()) {
      const RecordedSpan& parent = otel_of.at(h.parent_span_id.bytes);
      CHECK(o.parent == parent.context);
      CHECK(o.context.trace_id() == parent.context.trace_id());
    } else {
      CHECK_FALSE(o.parent.IsValid());  // The turn: under the caller's current span.
    }
    for (const Attribute& a : h.attributes) {
      CAPTURE(a.key);
      const RecordedValue* value = o.find(a.key);
      REQUIRE(value != nullptr);
      CHECK(same_value(*value, a.value));
    }
    CHECK(o.attributes.size() == h.attributes.size());
    if (h.status == SpanStatusCode::kError) {
      CHECK(o.status == api::trace::StatusCode::kError);
      CHECK(o.status_description == h.status_message);
    } else {
      CHECK(o.status == api::trace::StatusCode::kUnset);
    }
  }

  // The tree, spelled out: turn -> steps -> chat attempts and tool calls.
  const auto turns = t.hermes_spans->named("invoke_agent hermes");
  REQUIRE(turns.size() == 1);
  const RecordedSpan& turn = otel_of.at(turns[0].context.span_id.bytes);
  const auto steps = t.hermes_spans->children_of(turns[0], "hermes.step");
  REQUIRE(steps.size() == 2);
  const RecordedSpan& step1 = otel_of.at(steps[0].context.span_id.bytes);
  CHECK(step1.parent == turn.context);
  const auto attempts = t.hermes_spans->children_of(steps[0], "chat ", true);
  REQUIRE(attempts.size() == 2);
  const RecordedSpan& failed = otel_of.at(attempts[0].context.span_id.bytes);
  CHECK(failed.name == "chat mock-model");
  CHECK(failed.parent == step1.context);
  CHECK(failed.kind == api::trace::SpanKind::kClient);
  CHECK(failed.status == api::trace::StatusCode::kError);
  CHECK_FALSE(failed.status_description.empty());
  CHECK(std::get<std::string>(failed.find("error.type")->value) == "server_error");
  CHECK(std::get<int64_t>(failed.find("http.response.status_code")->value) == 500);
  const RecordedSpan& retried = otel_of.at(attempts[1].context.span_id.bytes);
  CHECK(retried.status == api::trace::StatusCode::kUnset);
  CHECK(retried.find("gen_ai.response.finish_reasons")->type == "string[]");
  CHECK(std::get<std::vector<std::string>>(retried.find("gen_ai.response.finish_reasons")->value) ==
        std::vector<std::string>{"tool_calls"});
  const auto tools = t.hermes_spans->children_of(steps[0], "execute_tool add");
  REQUIRE(tools.size() == 2);
  for (const SpanData& tool : tools) {
    const RecordedSpan& o = otel_of.at(tool.context.span_id.bytes);
    CHECK(o.parent == step1.context);
    CHECK(o.kind == api::trace::SpanKind::kInternal);
    CHECK(std::get<std::string>(o.find("gen_ai.tool.name")->value) == "add");
  }

  // Every measurement reached an instrument of its name, made once, of its kind.
  const auto hermes_metrics = t.hermes_spans->metrics();
  const auto otel_metrics = t.meter->measurements();
  REQUIRE(otel_metrics.size() == hermes_metrics.size());
  std::map<std::string, int> made;
  for (const RecordedInstrument& i : t.meter->instruments()) ++made[i.name];
  for (std::size_t i = 0; i < hermes_metrics.size(); ++i) {
    CAPTURE(hermes_metrics[i].name);
    CHECK(made[hermes_metrics[i].name] == 1);
  }
  auto total = [&](const std::string& name, const std::string& type) {
    double sum = 0;
    for (const RecordedMeasurement& m : otel_metrics) {
      if (m.instrument == name) {
        CHECK(m.type == type);
        sum += m.value;
      }
    }
    return sum;
  };
  CHECK(total("hermes.model_calls", "uint64_counter") == 3);
  CHECK(total("hermes.errors", "uint64_counter") == 1);
  CHECK(total("hermes.tool_calls", "uint64_counter") == 2);
  CHECK(total("gen_ai.client.token.usage", "double_histogram") ==
        t.hermes_spans->total("gen_ai.client.token.usage"));
  for (const RecordedMeasurement& m : otel_metrics) {
    if (m.instrument != "hermes.tool_calls") continue;
    CHECK(std::get<std::string>(m.attributes.at("gen_ai.tool.name").value) == "add");
  }
}

TEST_CASE("with a traceparent the turn continues the caller's remote trace") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_a", "add", R"({"a":1,"b":2})"}}, true));
  f.server.enqueue(chat::text("3.", true));
  Traced t;
  AgentOptions o = t.options(f);
  o.tracing.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto agent = f.agent(o);
  REQUIRE(agent->run_conversation("1+2?").completed);

  const auto remote = SpanContext::from_traceparent(o.tracing.traceparent);
  REQUIRE(remote);
  const auto otel_of = t.by_hermes_id();
  const auto turn = t.hermes_spans->named("invoke_agent hermes").at(0);
  const RecordedSpan& otel_turn = otel_of.at(turn.context.span_id.bytes);
  REQUIRE(otel_turn.parent.IsValid());
  CHECK(otel_turn.parent.IsRemote());
  CHECK(span_id_bytes(otel_turn.parent.span_id()) == remote->span_id.bytes);
  // Every span is in the caller's trace.
  for (const RecordedSpan& s : t.tracer->spans()) {
    CHECK(trace_id_bytes(s.context.trace_id()) == remote->trace_id.bytes);
  }
}
