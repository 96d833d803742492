// hermes/tracing.hpp — the spans and metrics of a running agent, for OpenTelemetry or any
// other tracing system.
//
// An agent with `AgentOptions::tracing.sink` set reports one span per turn
// ("invoke_agent hermes"), one per step of the loop ("hermes.step"), one per model call
// attempt ("chat <model>": retries and fallbacks are attempts of their own), one per tool
// call ("execute_tool <name>"), one per compaction, session store write and MCP request,
// each the child of the span it happened in. Attributes follow the OpenTelemetry GenAI
// semantic conventions (gen_ai.operation.name, gen_ai.system, gen_ai.request.model,
// gen_ai.response.finish_reasons, gen_ai.usage.input_tokens, gen_ai.usage.output_tokens,
// gen_ai.tool.name, error.type). Message text is never on a span unless
// `TracingOptions::capture_content` is set, and then only after redaction.
//
// The same sink receives metrics (token usage, operation and step durations, model and
// tool calls, errors by class) as individual measurements; OtlpExporter
// (hermes/otlp_exporter.hpp) aggregates them into OTLP metrics.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/json.hpp"

namespace hermes {

// The OpenTelemetry attribute types hermes uses.
using AttributeValue = std::variant<std::string, int64_t, double, bool, std::vector<std::string>>;

struct Attribute {
  std::string key;
  AttributeValue value;
};

// A 16-byte trace id; all zero is invalid.
struct TraceId {
  std::array<uint8_t, 16> bytes{};
  bool valid() const;
  std::string hex() const;  // 32 lowercase hex digits.
  friend bool operator==(const TraceId& a, const TraceId& b) { return a.bytes == b.bytes; }
  friend bool operator!=(const TraceId& a, const TraceId& b) { return !(a == b); }
};

// An 8-byte span id; all zero is invalid (and, as a parent, means "no parent").
struct SpanId {
  std::array<uint8_t, 8> bytes{};
  bool valid() const;
  std::string hex() const;  // 16 lowercase hex digits.
  friend bool operator==(const SpanId& a, const SpanId& b) { return a.bytes == b.bytes; }
  friend bool operator!=(const SpanId& a, const SpanId& b) { return !(a == b); }
};

struct SpanContext {
  TraceId trace_id;
  SpanId span_id;
  bool sampled = true;

  bool valid() const { return trace_id.valid() && span_id.valid(); }
  // The W3C Trace Context header value: "00-<trace id>-<span id>-<flags>".
  std::string traceparent() const;
  // Parses a W3C traceparent value (version 00, or a later version's first four fields);
  // nullopt for anything malformed or with an all-zero id.
  static std::optional<SpanContext> from_traceparent(std::string_view value);
};

enum class SpanKind { kInternal, kClient };
enum class SpanStatusCode { kUnset, kOk, kError };

struct SpanData {
  SpanContext context;
  SpanId parent_span_id;  // Invalid for a root span.
  std::string name;
  SpanKind kind = SpanKind::kInternal;
  int64_t start_time_unix_nano = 0;
  int64_t end_time_unix_nano = 0;  // 0 while the span runs (on_start).
  std::vector<Attribute> attributes;
  SpanStatusCode status = SpanStatusCode::kUnset;
  std::string status_message;

  // The first attribute named `key`, or nullptr.
  const AttributeValue* find(std::string_view key) const;
};

enum class MetricKind {
  kCounter,    // A monotonic sum: each measurement is an increment.
  kHistogram,  // A distribution: each measurement is one sample.
};

// One measurement. The names, units and attributes are the GenAI conventions' where they
// have one:
//   gen_ai.client.token.usage        histogram {token}  gen_ai.token.type input|output
//   gen_ai.client.operation.duration histogram s        per model call attempt
//   hermes.step.duration             histogram s        per step of the loop
//   hermes.model_calls               counter   {call}   per model call attempt
//   hermes.tool_calls                counter   {call}   gen_ai.tool.name, error.type
//   hermes.errors                    counter   {error}  error.type (the recovery class)
struct MetricRecord {
  std::string_view name;
  MetricKind kind = MetricKind::kCounter;
  std::string_view unit;
  std::string_view description;
  double value = 0;
  std::vector<Attribute> attributes;
  int64_t time_unix_nano = 0;
};

// Receives spans and metrics. Called from any thread of the agent (the turn's, tool
// workers', MCP readers'), possibly at once: implementations must be thread-safe and
// return quickly (queue, do not send). An exception thrown here is caught and dropped.
class HERMES_API TraceSink {
 public:
  virtual ~TraceSink();
  // A span started: its context, parent, name, kind, start time and the attributes known
  // at the start. Sinks that only want finished spans leave this alone.
  virtual void on_start(const SpanData& span);
  // A span ended: everything about it.
  virtual void on_end(const SpanData& span) = 0;
  virtual void on_metric(const MetricRecord& metric);
  // Delivers what is buffered, waiting at most `timeout`.
  virtual void flush(std::chrono::milliseconds timeout);
};

// A span as JSON, the form the C and Python callbacks receive: {"trace_id", "span_id",
// "parent_span_id" ("" for a root), "name", "kind" ("internal"|"client"),
// "start_time_unix_nano", "end_time_unix_nano" (0 while running), "status"
// ("unset"|"ok"|"error"), "status_message", "attributes": {key: value}}.
HERMES_API Json span_to_json(const SpanData& span);
// A measurement as JSON: {"name", "kind" ("counter"|"histogram"), "unit", "value",
// "time_unix_nano", "attributes": {key: value}}.
HERMES_API Json metric_to_json(const MetricRecord& metric);

struct TracingOptions {
  std::shared_ptr<TraceSink> sink;  // Null: no spans, no metrics, no cost.
  // Put the user message and the final answer on the turn span
  // (gen_ai.input.messages / gen_ai.output.messages, redacted) and tool arguments and
  // results on tool spans (gen_ai.tool.call.arguments / .result). Off by default.
  bool capture_content = false;
  // Join an existing trace: a W3C traceparent ("00-<trace>-<span>-01") whose span
  // becomes the parent of every turn span. Empty: each turn starts a new trace. A
  // malformed value is refused by Agent::create.
  std::string traceparent;
};

}  // namespace hermes
