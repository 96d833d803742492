// hermes::OpenTelemetrySink through the real opentelemetry-cpp SDK, built only where
// find_package(opentelemetry-cpp) finds the SDK and its in-memory exporter: a
// conversation with a failed attempt and a tool call, exported by the SDK, keeps hermes'
// span tree, times, attributes and statuses.
#include <opentelemetry/exporters/memory/in_memory_span_exporter.h>
#include <opentelemetry/sdk/trace/simple_processor.h>
#include <opentelemetry/sdk/trace/tracer_provider.h>

#include <map>

#include "hermes/opentelemetry_sink.hpp"
#include "integration/loop_http_fixture.hpp"
#include "otel/tee_sink.hpp"
#include "support/recording_trace_sink.hpp"

using namespace hermes;
using namespace hermes::testing;
using hermes::testing::otel::TeeSink;

namespace {

std::array<uint8_t, 8> bytes_of(const opentelemetry::trace::SpanId& id) {
  std::array<uint8_t, 8> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = id.Id()[i];
  return out;
}

}  // namespace

TEST_CASE("through the SDK, the exported spans keep hermes' tree, times and statuses") {
  namespace sdk = opentelemetry::sdk::trace;
  auto exporter = std::make_unique<opentelemetry::exporter::memory::InMemorySpanExporter>(1000);
  auto exported = exporter->GetData();
  std::unique_ptr<sdk::SpanExporter> as_exporter(std::move(exporter));
  auto provider = std::make_shared<sdk::TracerProvider>(
      std::unique_ptr<sdk::SpanProcessor>(new sdk::SimpleSpanProcessor(std::move(as_exporter))));

  LoopHttpFixture f;
  f.server.enqueue(chat::error(500, "the upstream fell over"));
  f.server.enqueue(chat::tool_calls({{"call_a", "add", R"({"a":1,"b":2})"}}, true));
  f.server.enqueue(chat::text("3.", true));
  auto hermes_spans = std::make_shared<RecordingTraceSink>();
  AgentOptions o = f.options();
  o.tracing.sink = std::make_shared<TeeSink>(
      hermes_spans, std::make_shared<OpenTelemetrySink>(provider->GetTracer("hermes-test")));
  o.failover.backoff.base = std::chrono::milliseconds(1);
  o.failover.backoff.max = std::chrono::milliseconds(1);
  auto agent = f.agent(o);
  REQUIRE(agent->run_conversation("1+2?").completed);

  const auto spans = exported->GetSpans();
  const auto reported = hermes_spans->spans();
  REQUIRE(spans.size() == reported.size());
  // hermes span id -> the exported span with its name and start time.
  std::map<std::array<uint8_t, 8>, const sdk::SpanData*> exported_of;
  for (const SpanData& h : reported) {
    for (const auto& s : spans) {
      if (std::string(s->GetName().data(), s->GetName().size()) == h.name &&
          s->GetStartTime().time_since_epoch().count() == h.start_time_unix_nano) {
        exported_of[h.context.span_id.bytes] = s.get();
      }
    }
    REQUIRE_MESSAGE(exported_of.count(h.context.span_id.bytes) == 1, h.name);
  }
  for (const SpanData& h : reported) {
    CAPTURE(h.name);
    const sdk::SpanData& s = *exported_of.at(h.context.span_id.bytes);
    CHECK(s.GetStartTime().time_since_epoch().count() + s.GetDuration().count() ==
          h.end_time_unix_nano);
    if (h.parent_span_id.valid()) {
      CHECK(bytes_of(s.GetParentSpanId()) ==
            bytes_of(exported_of.at(h.parent_span_id.bytes)->GetSpanId()));
    } else {
      CHECK_FALSE(s.GetParentSpanId().IsValid());
    }
    CHECK(s.GetAttributes().size() == h.attributes.size());
    CHECK((s.GetStatus() == opentelemetry::trace::StatusCode::kError) ==
          (h.status == SpanStatusCode::kError));
  }
}
