// hermes::OpenTelemetrySink, span by span and measurement by measurement: how attributes
// map onto OpenTelemetry's types, which parent a span gets (a hermes parent, a
// traceparent, or the current context), the times, statuses and renames, a span whose
// start was never seen, metrics instruments, the global providers, flush, a tracer that
// misbehaves, and many threads at once.
#include "hermes/opentelemetry_sink.hpp"

#include <doctest/doctest.h>

#include <thread>

#include "otel/recording_meter.hpp"
#include "otel/recording_tracer.hpp"

using namespace hermes;
using namespace hermes::testing::otel;

namespace {

constexpr int64_t kStart = 1'700'000'000'000'000'000;

SpanData span_data(const std::string& name, uint8_t id, const SpanData* parent = nullptr) {
  SpanData span;
  span.name = name;
  span.context.trace_id.bytes.fill(0x42);
  span.context.span_id.bytes[7] = id;
  if (parent != nullptr) {
    span.context.trace_id = parent->context.trace_id;
    span.parent_span_id = parent->context.span_id;
  }
  span.start_time_unix_nano = kStart + id * 1000;
  return span;
}

void end(SpanData& span, int64_t duration_nanos) {
  span.end_time_unix_nano = span.start_time_unix_nano + duration_nanos;
}

struct Fixture {
  std::shared_ptr<RecordingTracer> tracer = std::make_shared<RecordingTracer>();
  std::shared_ptr<RecordingMeter> meter = std::make_shared<RecordingMeter>();
  OpenTelemetrySink sink{as_api(tracer), as_api(meter)};

  RecordedSpan only_span() const {
    auto spans = tracer->spans();
    REQUIRE(spans.size() == 1);
    return spans[0];
  }
};

}  // namespace

TEST_CASE("every hermes attribute type becomes its OpenTelemetry counterpart") {
  Fixture f;
  SpanData span = span_data("execute_tool add", 1);
  span.attributes = {{"text", std::string("hello")},
                     {"count", int64_t{-7}},
                     {"ratio", 0.25},
                     {"flag", true},
                     {"reasons", std::vector<std::string>{"stop", "length"}},
                     {"empty", std::vector<std::string>{}}};
  end(span, 500);
  f.sink.on_end(span);

  const RecordedSpan otel = f.only_span();
  CHECK(otel.find("text")->type == "string");
  CHECK(std::get<std::string>(otel.find("text")->value) == "hello");
  CHECK(otel.find("count")->type == "int64");
  CHECK(std::get<int64_t>(otel.find("count")->value) == -7);
  CHECK(otel.find("ratio")->type == "double");
  CHECK(std::get<double>(otel.find("ratio")->value) == 0.25);
  CHECK(otel.find("flag")->type == "bool");
  CHECK(std::get<bool>(otel.find("flag")->value));
  CHECK(otel.find("reasons")->type == "string[]");
  CHECK(std::get<std::vector<std::string>>(otel.find("reasons")->value) ==
        std::vector<std::string>{"stop", "length"});
  CHECK(otel.find("empty")->type == "string[]");
  CHECK(std::get<std::vector<std::string>>(otel.find("empty")->value).empty());
}

TEST_CASE("a child is started under the OpenTelemetry span of its hermes parent") {
  Fixture f;
  SpanData turn = span_data("invoke_agent hermes", 1);
  SpanData step = span_data("hermes.step", 2, &turn);
  SpanData chat = span_data("chat m", 3, &step);
  chat.kind = SpanKind::kClient;
  f.sink.on_start(turn);
  f.sink.on_start(step);
  f.sink.on_start(chat);
  end(chat, 10);
  f.sink.on_end(chat);
  end(step, 20);
  f.sink.on_end(step);
  end(turn, 30);
  f.sink.on_end(turn);

  const auto spans = f.tracer->spans();
  REQUIRE(spans.size() == 3);
  // The turn has no hermes parent: the runtime context decides (no explicit parent).
  CHECK_FALSE(spans[0].parent.IsValid());
  CHECK(spans[1].parent == spans[0].context);
  CHECK(spans[2].parent == spans[1].context);
  CHECK(spans[2].kind == api::trace::SpanKind::kClient);
  CHECK(spans[1].kind == api::trace::SpanKind::kInternal);
  // The ids are the tracer's, never hermes'.
  CHECK(span_id_bytes(spans[1].context.span_id()) != step.context.span_id.bytes);
  for (const RecordedSpan& s : spans) CHECK(s.ends == 1);
}

TEST_CASE("a span whose parent came from a traceparent continues that remote trace") {
  Fixture f;
  auto remote =
      SpanContext::from_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  REQUIRE(remote);
  SpanData turn = span_data("invoke_agent hermes", 1);
  turn.context.trace_id = remote->trace_id;
  turn.parent_span_id = remote->span_id;
  f.sink.on_start(turn);
  end(turn, 5);
  f.sink.on_end(turn);

  const RecordedSpan otel = f.only_span();
  REQUIRE(otel.parent.IsValid());
  CHECK(otel.parent.IsRemote());
  CHECK(otel.parent.IsSampled());
  CHECK(trace_id_bytes(otel.parent.trace_id()) == remote->trace_id.bytes);
  CHECK(span_id_bytes(otel.parent.span_id()) == remote->span_id.bytes);
  // The tracer put the span in the remote trace.
  CHECK(trace_id_bytes(otel.context.trace_id()) == remote->trace_id.bytes);

  SUBCASE("an unsampled traceparent stays unsampled") {
    Fixture g;
    turn.context.sampled = false;
    g.sink.on_start(turn);
    g.sink.on_end(turn);
    CHECK_FALSE(g.only_span().parent.IsSampled());
  }
}

TEST_CASE("times: the start on both clocks, the end so that the duration is hermes'") {
  Fixture f;
  SpanData span = span_data("hermes.step", 1);
  f.sink.on_start(span);
  end(span, 1'234'567);
  f.sink.on_end(span);
  const RecordedSpan otel = f.only_span();
  CHECK(otel.start_system_nanos == span.start_time_unix_nano);
  CHECK(otel.start_steady_nanos != 0);
  CHECK(otel.end_steady_nanos - otel.start_steady_nanos == 1'234'567);
  CHECK(otel.end_system_nanos() == span.end_time_unix_nano);
}

TEST_CASE("the end brings the final attributes, the error status and a new name") {
  Fixture f;
  SpanData span = span_data("chat m", 1);
  span.attributes = {{"gen_ai.request.model", std::string("m")}};
  f.sink.on_start(span);
  span.name = "chat m2";
  span.attributes.push_back({"error.type", std::string("rate_limit")});
  span.status = SpanStatusCode::kError;
  span.status_message = "429 slow down";
  end(span, 9);
  f.sink.on_end(span);

  const RecordedSpan otel = f.only_span();
  CHECK(otel.start_name == "chat m");
  CHECK(otel.name == "chat m2");
  CHECK(otel.start_attributes.size() == 1);
  CHECK(std::get<std::string>(otel.find("error.type")->value) == "rate_limit");
  CHECK(otel.status == api::trace::StatusCode::kError);
  CHECK(otel.status_description == "429 slow down");

  SUBCASE("ok and unset statuses") {
    Fixture g;
    SpanData ok = span_data("a", 2);
    ok.status = SpanStatusCode::kOk;
    end(ok, 1);
    g.sink.on_end(ok);
    SpanData unset = span_data("b", 3);
    end(unset, 1);
    g.sink.on_end(unset);
    const auto spans = g.tracer->spans();
    REQUIRE(spans.size() == 2);
    CHECK(spans[0].status == api::trace::StatusCode::kOk);
    CHECK(spans[1].status == api::trace::StatusCode::kUnset);
  }
}

TEST_CASE("a span whose start was not seen is started and ended at once, with both times") {
  Fixture f;
  SpanData parent = span_data("hermes.step", 1);
  f.sink.on_start(parent);
  SpanData late = span_data("execute_tool add", 2, &parent);
  late.attributes = {{"gen_ai.tool.name", std::string("add")}};
  end(late, 777);
  f.sink.on_end(late);  // No on_start: attached mid-span, or a sink for ends only.

  const auto spans = f.tracer->spans();
  REQUIRE(spans.size() == 2);
  const RecordedSpan& otel = spans[1];
  CHECK(otel.ends == 1);
  CHECK(otel.parent == spans[0].context);  // Its parent is still open.
  CHECK(otel.start_system_nanos == late.start_time_unix_nano);
  CHECK(otel.end_system_nanos() == late.end_time_unix_nano);
  CHECK(std::get<std::string>(otel.start_attributes.at("gen_ai.tool.name").value) == "add");
  CHECK(spans[0].ends == 0);
}

TEST_CASE("measurements: an instrument per name, made once, of the kind the metric is") {
  Fixture f;
  auto measure = [&](std::string_view name, MetricKind kind, std::string_view unit, double v,
                     std::vector<Attribute> attributes = {}) {
    MetricRecord m;
    m.name = name;
    m.kind = kind;
    m.unit = unit;
    m.description = "what it measures";
    m.value = v;
    m.attributes = std::move(attributes);
    f.sink.on_metric(m);
  };
  measure("hermes.model_calls", MetricKind::kCounter, "{call}", 1,
          {{"gen_ai.request.model", std::string("m")}});
  measure("hermes.model_calls", MetricKind::kCounter, "{call}", 2);
  measure("hermes.cost", MetricKind::kCounter, "USD", 0.5);
  measure("gen_ai.client.operation.duration", MetricKind::kHistogram, "s", 0.125,
          {{"error.type", std::string("timeout")}});
  measure("gen_ai.client.operation.duration", MetricKind::kHistogram, "s", 0.25);
  measure("hermes.model_calls", MetricKind::kCounter, "{call}", -1);  // Counters only rise.
  measure("hermes.model_calls", MetricKind::kCounter, "{call}", std::nan(""));

  const auto instruments = f.meter->instruments();
  REQUIRE(instruments.size() == 3);
  CHECK(instruments[0].name == "hermes.model_calls");
  CHECK(instruments[0].type == "uint64_counter");
  CHECK(instruments[0].unit == "{call}");
  CHECK(instruments[0].description == "what it measures");
  CHECK(instruments[1].name == "hermes.cost");
  CHECK(instruments[1].type == "double_counter");
  CHECK(instruments[2].name == "gen_ai.client.operation.duration");
  CHECK(instruments[2].type == "double_histogram");
  CHECK(instruments[2].unit == "s");

  const auto measurements = f.meter->measurements();
  REQUIRE(measurements.size() == 5);
  CHECK(measurements[0].value == 1);
  CHECK(std::get<std::string>(measurements[0].attributes.at("gen_ai.request.model").value) == "m");
  CHECK(measurements[1].value == 2);
  CHECK(measurements[2].value == 0.5);
  CHECK(measurements[3].type == "double_histogram");
  CHECK(measurements[3].value == 0.125);
  CHECK(std::get<std::string>(measurements[3].attributes.at("error.type").value) == "timeout");
  CHECK(measurements[4].value == 0.25);
}

TEST_CASE("by default the global providers' tracer and meter named hermes are used") {
  auto tracers = std::make_shared<RecordingTracerProvider>();
  auto meters = std::make_shared<RecordingMeterProvider>();
  api::trace::Provider::SetTracerProvider(api::nostd::shared_ptr<api::trace::TracerProvider>(
      std::shared_ptr<api::trace::TracerProvider>(tracers)));
  api::metrics::Provider::SetMeterProvider(api::nostd::shared_ptr<api::metrics::MeterProvider>(
      std::shared_ptr<api::metrics::MeterProvider>(meters)));

  OpenTelemetrySink sink;
  CHECK(tracers->asked_name == "hermes");
  CHECK(tracers->asked_version == HERMES_VERSION_STRING);
  CHECK(meters->asked_name == "hermes");
  CHECK(meters->asked_version == HERMES_VERSION_STRING);
  CHECK(sink.tracer().get() == tracers->tracer.get());
  CHECK(sink.meter().get() == meters->meter.get());

  SpanData span = span_data("hermes.step", 1);
  end(span, 1);
  sink.on_end(span);
  CHECK(tracers->tracer->spans().size() == 1);

  api::trace::Provider::SetTracerProvider(api::nostd::shared_ptr<api::trace::TracerProvider>());
  api::metrics::Provider::SetMeterProvider(api::nostd::shared_ptr<api::metrics::MeterProvider>());
}

#if OPENTELEMETRY_ABI_VERSION_NO < 2
TEST_CASE("flush forces the tracer to flush, within the timeout") {
  Fixture f;
  f.sink.flush(std::chrono::milliseconds(250));
  CHECK(f.tracer->flushes() == std::vector<uint64_t>{250'000});
}
#endif

TEST_CASE("a tracer or meter that gives nothing back is survived") {
  struct NullTracer : RecordingTracer {
    api::nostd::shared_ptr<api::trace::Span> StartSpan(
        api::nostd::string_view, const api::common::KeyValueIterable&,
        const api::trace::SpanContextKeyValueIterable&,
        const api::trace::StartSpanOptions&) noexcept override {
      return api::nostd::shared_ptr<api::trace::Span>();
    }
  };
  struct NullMeter : RecordingMeter {
    api::nostd::unique_ptr<api::metrics::Counter<uint64_t>> CreateUInt64Counter(
        api::nostd::string_view, api::nostd::string_view,
        api::nostd::string_view) noexcept override {
      return api::nostd::unique_ptr<api::metrics::Counter<uint64_t>>(nullptr);
    }
  };
  OpenTelemetrySink sink(as_api(std::make_shared<NullTracer>()),
                         as_api(std::make_shared<NullMeter>()));
  SpanData parent = span_data("a", 1);
  SpanData child = span_data("b", 2, &parent);
  sink.on_start(parent);
  sink.on_start(child);
  end(child, 1);
  sink.on_end(child);
  end(parent, 2);
  sink.on_end(parent);
  MetricRecord m;
  m.name = "hermes.tool_calls";
  m.unit = "{call}";
  m.value = 1;
  sink.on_metric(m);
  sink.on_metric(m);

  // No global providers at all (the stand-in starts with none): nothing is sent anywhere.
  api::trace::Provider::SetTracerProvider(api::nostd::shared_ptr<api::trace::TracerProvider>());
  api::metrics::Provider::SetMeterProvider(api::nostd::shared_ptr<api::metrics::MeterProvider>());
  OpenTelemetrySink nowhere;
  nowhere.on_start(parent);
  nowhere.on_end(parent);
  nowhere.on_metric(m);
  nowhere.flush(std::chrono::milliseconds(1));
}

TEST_CASE("spans and measurements from many threads at once all arrive") {
  Fixture f;
  SpanData step = span_data("hermes.step", 1);
  f.sink.on_start(step);
  constexpr int kThreads = 8;
  constexpr int kSpansEach = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&f, &step, t] {
      for (int i = 0; i < kSpansEach; ++i) {
        SpanData tool = span_data("execute_tool add", 2, &step);
        tool.context.span_id.bytes[0] = static_cast<uint8_t>(t + 1);
        tool.context.span_id.bytes[1] = static_cast<uint8_t>(i);
        f.sink.on_start(tool);
        end(tool, 10);
        f.sink.on_end(tool);
        MetricRecord m;
        m.name = t % 2 == 0 ? "hermes.tool_calls" : "hermes.errors";
        m.unit = "{call}";
        m.value = 1;
        f.sink.on_metric(m);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  end(step, 100);
  f.sink.on_end(step);

  const auto spans = f.tracer->spans();
  REQUIRE(spans.size() == 1 + kThreads * kSpansEach);
  for (std::size_t i = 1; i < spans.size(); ++i) {
    CHECK(spans[i].parent == spans[0].context);
    CHECK(spans[i].ends == 1);
  }
  CHECK(spans[0].ends == 1);
  CHECK(f.meter->instruments().size() == 2);
  CHECK(f.meter->measurements().size() == static_cast<std::size_t>(kThreads * kSpansEach));
}

TEST_CASE("a name measured first as a counter, then as a histogram, keeps its counter") {
  Fixture f;
  MetricRecord m;
  m.name = "hermes.odd";
  m.unit = "{call}";
  m.value = 1;
  f.sink.on_metric(m);
  m.kind = MetricKind::kHistogram;
  f.sink.on_metric(m);
  REQUIRE(f.meter->instruments().size() == 1);
  CHECK(f.meter->instruments()[0].type == "uint64_counter");
  CHECK(f.meter->measurements().size() == 1);
}
