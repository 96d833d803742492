// hermes/otlp_exporter.hpp — a TraceSink that sends spans and metrics to an
// OpenTelemetry collector (or any OTLP/HTTP receiver: Jaeger, Tempo, Honeycomb, ...).
//
// The exporter speaks OTLP over HTTP with the JSON encoding (Content-Type
// application/json): spans go to <endpoint>/v1/traces, metrics to <endpoint>/v1/metrics.
// gRPC and the binary protobuf encoding are not implemented; when the environment asks
// for them (OTEL_EXPORTER_OTLP_PROTOCOL=grpc or http/protobuf) a warning is logged and
// JSON is sent all the same, which every OTLP/HTTP receiver accepts.
//
// Usage:
//
//   auto exporter = hermes::OtlpExporter::from_environment();  // OTEL_* variables
//   if (exporter.ok() && *exporter) options.tracing.sink = *exporter;
//   ...
//   (*exporter)->shutdown();  // or let the last reference go
//
// Spans are batched as the OpenTelemetry SDK's batch span processor does: on_end() puts a
// copy of the span on a bounded queue and returns; a background thread sends a batch
// when max_export_batch_size spans wait or schedule_delay has passed. A full queue drops
// the span (counted in stats()). A receiver that is down, slow or refusing costs an
// export failure, never a blocked turn. Metrics are aggregated in memory (cumulative
// sums and explicit-bucket histograms per metric and attribute set) and sent every
// metric_export_interval, on flush() and on shutdown().
//
// Limits: attribute strings longer than 64 KiB are cut (at a character boundary), a span
// keeps its first 128 attributes (the rest are counted in droppedAttributesCount), the
// queue holds at most 64 MiB of spans (beyond, spans are dropped as for a full queue) and
// a request at most about 4 MiB of them (a batch is split), and a metric keeps at most
// 2000 attribute sets; later sets are folded into one series with the attribute
// otel.metric.overflow=true, as the OpenTelemetry SDK does. Spans that are not sampled,
// or whose ids are invalid, are not exported.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/status.hpp"
#include "hermes/tracing.hpp"

namespace hermes {

struct OtlpExporterOptions {
  // The receiver's base URL, e.g. "http://localhost:4318": traces go to
  // <endpoint>/v1/traces and metrics to <endpoint>/v1/metrics.
  std::string endpoint;
  // Full URLs used as they are, instead of the ones derived from `endpoint`.
  std::string traces_endpoint;
  std::string metrics_endpoint;
  // Which signals to send. A signal without a URL (neither its own nor `endpoint`) is not
  // sent either.
  bool export_traces = true;
  bool export_metrics = true;
  // HTTP headers sent with every export (authentication, tenant ids), and per signal; a
  // per-signal header replaces a common one of the same name (compared ignoring case).
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::pair<std::string, std::string>> traces_headers;
  std::vector<std::pair<std::string, std::string>> metrics_headers;

  // The resource: service.name, then these attributes (a service.name among them wins).
  // telemetry.sdk.name/language/version are always added.
  std::string service_name = "hermes";
  std::vector<Attribute> resource_attributes;

  // The batch span processor's settings, with the OpenTelemetry SDK's defaults.
  std::size_t max_queue_size = 2048;
  std::size_t max_export_batch_size = 512;  // At most max_queue_size.
  std::chrono::milliseconds schedule_delay{5000};
  // The longest one export (one POST) may take, connection included.
  std::chrono::milliseconds export_timeout{10000};
  std::chrono::milliseconds metric_export_interval{60000};
};

// Counters since the exporter was created.
struct OtlpExporterStats {
  uint64_t spans_queued = 0;    // Accepted by on_end().
  uint64_t spans_exported = 0;  // In a batch the receiver accepted (2xx).
  uint64_t spans_dropped = 0;   // Refused by on_end() because the queue was full or closed.
  uint64_t spans_failed = 0;    // In a batch that could not be delivered.
  uint64_t trace_exports = 0;   // Batches the receiver accepted.
  uint64_t trace_export_failures = 0;
  uint64_t metric_exports = 0;  // Metric requests the receiver accepted.
  uint64_t metric_export_failures = 0;
  uint64_t metric_records = 0;          // Measurements aggregated by on_metric().
  uint64_t metric_records_dropped = 0;  // Not finite, negative for a counter, or a name
                                        // already used by the other kind.
};

// The OTLP/HTTP JSON exporter.
//
// Thread-safety: every method may be called from any thread at once, as TraceSink
// requires. on_end() and on_metric() take a mutex for the length of a copy and never do
// I/O.
class HERMES_API OtlpExporter : public TraceSink {
 public:
  // Starts the exporter's thread. InvalidArgument when no signal is left with a URL, a
  // URL is not http(s)://host[:port][/path], or a size or duration is zero.
  static Result<std::shared_ptr<OtlpExporter>> create(OtlpExporterOptions options);

  // The options the standard OpenTelemetry SDK variables describe (see
  // options_from_environment), then create(). An ok null pointer when the environment
  // does not ask for an exporter: OTEL_SDK_DISABLED=true, no endpoint, or both
  // OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER set to something without "otlp".
  static Result<std::shared_ptr<OtlpExporter>> from_environment();

  // Reads, as the OpenTelemetry SDK does:
  //   OTEL_SDK_DISABLED                      "true": no exporter
  //   OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER
  //                                          "none" (or no "otlp" in the list): off
  //   OTEL_EXPORTER_OTLP_ENDPOINT            base URL; /v1/traces, /v1/metrics appended
  //   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT
  //                                          full URLs, used as they are
  //   OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS,
  //   OTEL_EXPORTER_OTLP_METRICS_HEADERS     "k=v,k2=v2", values URL-decoded
  //   OTEL_SERVICE_NAME                      service.name (over OTEL_RESOURCE_ATTRIBUTES')
  //   OTEL_RESOURCE_ATTRIBUTES               "k=v,k2=v2", values URL-decoded
  //   OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_BSP_SCHEDULE_DELAY, OTEL_METRIC_EXPORT_INTERVAL
  //                                          milliseconds
  //   OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE
  //   OTEL_EXPORTER_OTLP_PROTOCOL (and _TRACES_/_METRICS_)
  //                                          only http/json; others: a warning, JSON sent
  // A malformed value is logged as a warning and its default used. Returns false (and
  // leaves `options` unspecified) when the environment does not ask for an exporter.
  static bool options_from_environment(OtlpExporterOptions& options);

  ~OtlpExporter() override;  // shutdown() with a one-second budget.
  OtlpExporter(const OtlpExporter&) = delete;
  OtlpExporter& operator=(const OtlpExporter&) = delete;

  void on_end(const SpanData& span) override;
  void on_metric(const MetricRecord& metric) override;
  // Sends every queued span and the current metrics, waiting at most `timeout`. Spans
  // that arrive meanwhile may go in the same requests.
  void flush(std::chrono::milliseconds timeout) override;

  // Sends what is queued (at most `timeout`, after which transfers in flight are
  // abandoned), stops the thread and refuses later spans. Idempotent.
  void shutdown(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

  OtlpExporterStats stats() const;
  // The URLs in use; empty for a signal that is not sent.
  const std::string& traces_url() const;
  const std::string& metrics_url() const;

 private:
  struct Impl;
  explicit OtlpExporter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
