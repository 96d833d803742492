// OtlpExporter: the batch span processor, the metric reader and the OTLP/HTTP sender in
// one background thread. The calls from the agent only copy under a mutex; every request
// is made from the thread.
#include "hermes/otlp_exporter.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

#include "common/text_utils.hpp"
#include "common/tracer.hpp"
#include "providers/http_client.hpp"
#include "providers/url.hpp"
#include "safety/log.hpp"
#include "telemetry/metric_aggregator.hpp"
#include "telemetry/otlp_environment.hpp"
#include "telemetry/otlp_json.hpp"

namespace hermes {
namespace {

using Clock = std::chrono::steady_clock;
using Headers = std::vector<std::pair<std::string, std::string>>;

// One retry of a throttled or briefly unavailable receiver, after a fixed pause; more
// would hold up the batches behind it.
constexpr std::chrono::milliseconds kRetryDelay{1000};
// A receiver's answer is a small ExportServiceResponse; anything larger is not read.
constexpr std::size_t kMaxResponseBytes = std::size_t{1} << 20;
// What the queue may hold in all: 2048 spans of a few KiB fit many times over, 2048 spans
// of 128 attributes of 64 KiB would not fit in memory.
constexpr std::size_t kMaxQueuedBytes = std::size_t{64} << 20;
// A request is cut at about this size, below the OpenTelemetry Collector's default
// limit on a request body (20 MiB) and far below any proxy's.
constexpr std::size_t kMaxBatchBytes = std::size_t{4} << 20;

bool is_token_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte > 0x20 && byte < 0x7F &&
         std::string_view("\"(),/:;<=>?@[\\]{}").find(c) == std::string_view::npos;
}

Status check_headers(const Headers& headers) {
  for (const auto& [name, value] : headers) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_token_char)) {
      return Status::invalid_argument("OtlpExporter: not a valid HTTP header name: \"" +
                                      internal::excerpt(name, 80) + "\"");
    }
    if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) {
      return Status::invalid_argument("OtlpExporter: the value of header " + name +
                                      " holds a line break or NUL");
    }
  }
  return Status();
}

// "Name: value" lines: the common headers, each replaced by a per-signal one of the same
// name, then the per-signal ones left.
std::vector<std::string> header_lines(const Headers& common, const Headers& signal) {
  std::vector<std::string> lines;
  auto overridden = [&signal](const std::string& name) {
    return std::any_of(signal.begin(), signal.end(),
                       [&name](const auto& h) { return internal::iequals(h.first, name); });
  };
  for (const auto& [name, value] : common) {
    if (!overridden(name)) lines.push_back(name + ": " + value);
  }
  for (const auto& [name, value] : signal) lines.push_back(name + ": " + value);
  lines.push_back("Content-Type: application/json");
  return lines;
}

// The URL a signal is sent to: its own, else the base with `path` appended, else none.
Result<std::string> resolve_url(bool enabled, const std::string& own, const std::string& base,
                                std::string_view path, std::string_view signal) {
  if (!enabled) return std::string();
  const std::string url = !own.empty()    ? std::string(internal::trim_ascii(own))
                          : !base.empty() ? internal::signal_url(internal::trim_ascii(base), path)
                                          : std::string();
  if (url.empty()) return url;
  const std::optional<internal::Url> parsed = internal::parse_url(url);
  if (!parsed || (parsed->scheme != "http" && parsed->scheme != "https") || parsed->host.empty()) {
    return Status::invalid_argument("OtlpExporter: the " + std::string(signal) + " URL \"" +
                                    internal::excerpt(url, 200) +
                                    "\" is not an http:// or https:// URL with a host");
  }
  return url;
}

}  // namespace

struct OtlpExporter::Impl {
  OtlpExporterOptions options;
  std::string traces_url;
  std::string metrics_url;
  std::vector<std::string> traces_headers;
  std::vector<std::string> metrics_headers;
  std::vector<Attribute> resource;
  int64_t start_unix_nano = internal::unix_time_nanos();
  // Cancelled when shutdown() runs out of time: the transfer in flight ends within
  // 100 ms and later ones fail at once.
  CancelToken cancel;

  mutable std::mutex mu;
  std::condition_variable wake;  // The thread waits on it for work.
  std::condition_variable done;  // flush() and shutdown() wait on it.
  std::deque<internal::QueuedSpan> queue;
  std::size_t queued_bytes = 0;
  bool stopping = false;  // No more spans; the thread drains the queue and ends.
  bool finished = false;  // The thread has ended.
  uint64_t flush_requested = 0;
  uint64_t flush_completed = 0;
  OtlpExporterStats span_stats;  // Its span and trace fields.
  bool traces_failing = false;   // Only the thread: to log a failure once, not per batch.
  bool metrics_failing = false;  // Likewise.

  mutable std::mutex metrics_mu;
  internal::MetricAggregator metrics;
  OtlpExporterStats metric_stats;  // Its metric fields.

  std::mutex shutdown_mu;  // One shutdown() at a time.
  std::thread thread;

  void run();
  void export_spans(std::vector<internal::QueuedSpan> batch);
  void export_metrics();
  bool post(const std::string& url, const std::vector<std::string>& headers, std::string body,
            std::string_view what);
};

bool OtlpExporter::Impl::post(const std::string& url, const std::vector<std::string>& headers,
                              std::string body, std::string_view what) {
  internal::HttpRequest request;
  request.url = url;
  request.headers = headers;
  request.body = std::move(body);
  const std::chrono::milliseconds limit = options.export_timeout;
  request.timeouts.connect = limit;
  request.timeouts.first_byte = limit;
  request.timeouts.idle = limit;
  request.timeouts.stale_stream = limit;
  request.timeouts.total = limit;
  request.max_buffered_body_bytes = kMaxResponseBytes;
  for (int attempt = 0;; ++attempt) {
    const internal::HttpResult result = internal::HttpClient::shared().post(request, cancel);
    const int status = result.head.status;
    if (status >= 200 && status < 300) return true;
    const bool transient = status == 429 || status == 502 || status == 503 || status == 504;
    if (attempt == 0 && transient && !cancel.wait_for(kRetryDelay)) continue;
    bool& failing = what == "spans" ? traces_failing : metrics_failing;
    if (!failing) {
      HERMES_LOG_WARN("OTLP export of {} to {} failed: {}", what, url,
                      status != 0 ? "HTTP " + std::to_string(status) : result.error);
    }
    failing = true;
    return false;
  }
}

void OtlpExporter::Impl::export_spans(std::vector<internal::QueuedSpan> batch) {
  const std::size_t count = batch.size();
  const bool ok =
      post(traces_url, traces_headers, internal::encode_traces(resource, batch), "spans");
  if (ok) traces_failing = false;
  std::lock_guard<std::mutex> lock(mu);
  (ok ? span_stats.spans_exported : span_stats.spans_failed) += count;
  ++(ok ? span_stats.trace_exports : span_stats.trace_export_failures);
}

void OtlpExporter::Impl::export_metrics() {
  std::vector<internal::MetricSeries> series;
  {
    std::lock_guard<std::mutex> lock(metrics_mu);
    if (metrics.empty()) return;
    series = metrics.snapshot();
  }
  const std::string body =
      internal::encode_metrics(resource, series, start_unix_nano, internal::unix_time_nanos());
  const bool ok = post(metrics_url, metrics_headers, body, "metrics");
  if (ok) metrics_failing = false;
  std::lock_guard<std::mutex> lock(metrics_mu);
  ++(ok ? metric_stats.metric_exports : metric_stats.metric_export_failures);
}

// The loop of the thread. Spans go when a full batch waits, when schedule_delay has
// passed since the last export, on flush and at the end; metrics every
// metric_export_interval, on flush and at the end.
void OtlpExporter::Impl::run() {
  const std::size_t batch_size = options.max_export_batch_size;
  Clock::time_point next_spans = Clock::now() + options.schedule_delay;
  Clock::time_point next_metrics = Clock::now() + options.metric_export_interval;
  std::unique_lock<std::mutex> lock(mu);
  while (true) {
    const Clock::time_point wake_at =
        metrics_url.empty() ? next_spans : std::min(next_spans, next_metrics);
    wake.wait_until(lock, wake_at, [&] {
      return stopping || flush_requested > flush_completed || queue.size() >= batch_size;
    });
    const bool last = stopping;
    const uint64_t flush_target = flush_requested;
    const bool flushing = last || flush_target > flush_completed;
    const Clock::time_point now = Clock::now();
    const bool spans_due = flushing || now >= next_spans;
    // On a timer or a flush everything queued now goes; otherwise the full batches.
    std::size_t to_send = spans_due ? queue.size() : queue.size() - queue.size() % batch_size;
    while (to_send > 0) {
      std::vector<internal::QueuedSpan> batch;
      std::size_t batch_bytes = 0;
      while (to_send > 0 && batch.size() < batch_size &&
             (batch.empty() || batch_bytes + queue.front().bytes <= kMaxBatchBytes)) {
        batch_bytes += queue.front().bytes;
        batch.push_back(std::move(queue.front()));
        queue.pop_front();
        --to_send;
      }
      queued_bytes -= batch_bytes;
      lock.unlock();
      export_spans(std::move(batch));
      lock.lock();
    }
    if (spans_due) next_spans = Clock::now() + options.schedule_delay;
    if (!metrics_url.empty() && (flushing || now >= next_metrics)) {
      lock.unlock();
      export_metrics();
      lock.lock();
      next_metrics = Clock::now() + options.metric_export_interval;
    }
    if (flushing) {
      flush_completed = flush_target;
      done.notify_all();
    }
    if (last) break;
  }
  finished = true;
  done.notify_all();
}

OtlpExporter::OtlpExporter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::shared_ptr<OtlpExporter>> OtlpExporter::create(OtlpExporterOptions options) {
  auto traces = resolve_url(options.export_traces, options.traces_endpoint, options.endpoint,
                            "/v1/traces", "traces");
  if (!traces.ok()) return traces.status();
  auto metrics = resolve_url(options.export_metrics, options.metrics_endpoint, options.endpoint,
                             "/v1/metrics", "metrics");
  if (!metrics.ok()) return metrics.status();
  if (traces->empty() && metrics->empty()) {
    return Status::invalid_argument(
        "OtlpExporter: nothing to export: set endpoint, traces_endpoint or metrics_endpoint");
  }
  if (options.max_queue_size == 0 || options.max_export_batch_size == 0 ||
      options.max_export_batch_size > options.max_queue_size) {
    return Status::invalid_argument(
        "OtlpExporter: max_queue_size and max_export_batch_size must be positive, the batch "
        "no larger than the queue");
  }
  if (options.schedule_delay.count() <= 0 || options.export_timeout.count() <= 0 ||
      options.metric_export_interval.count() <= 0) {
    return Status::invalid_argument(
        "OtlpExporter: schedule_delay, export_timeout and metric_export_interval must be "
        "positive");
  }
  for (const Headers* headers :
       {&options.headers, &options.traces_headers, &options.metrics_headers}) {
    HERMES_RETURN_IF_ERROR(check_headers(*headers));
  }
  auto impl = std::make_unique<Impl>();
  impl->traces_url = std::move(*traces);
  impl->metrics_url = std::move(*metrics);
  impl->traces_headers = header_lines(options.headers, options.traces_headers);
  impl->metrics_headers = header_lines(options.headers, options.metrics_headers);
  impl->resource = internal::make_resource(options.service_name, options.resource_attributes);
  impl->options = std::move(options);
  Impl* running = impl.get();
  std::shared_ptr<OtlpExporter> exporter(new OtlpExporter(std::move(impl)));
  running->thread = std::thread([running] { running->run(); });
  return exporter;
}

Result<std::shared_ptr<OtlpExporter>> OtlpExporter::from_environment() {
  OtlpExporterOptions options;
  if (!options_from_environment(options)) return std::shared_ptr<OtlpExporter>();
  return create(std::move(options));
}

OtlpExporter::~OtlpExporter() {
  shutdown(std::chrono::milliseconds(1000));
}

void OtlpExporter::on_end(const SpanData& span) {
  if (impl_->traces_url.empty() || !span.context.sampled || !span.context.valid()) return;
  {
    // Not worth a copy when it would be refused.
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopping || impl_->queue.size() >= impl_->options.max_queue_size) {
      ++impl_->span_stats.spans_dropped;
      return;
    }
  }
  internal::QueuedSpan copy = internal::bounded_copy(span);
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (impl_->stopping || impl_->queue.size() >= impl_->options.max_queue_size ||
      impl_->queued_bytes + copy.bytes > kMaxQueuedBytes) {
    ++impl_->span_stats.spans_dropped;
    return;
  }
  impl_->queued_bytes += copy.bytes;
  impl_->queue.push_back(std::move(copy));
  ++impl_->span_stats.spans_queued;
  if (impl_->queue.size() >= impl_->options.max_export_batch_size) impl_->wake.notify_one();
}

void OtlpExporter::on_metric(const MetricRecord& metric) {
  if (impl_->metrics_url.empty()) return;
  std::lock_guard<std::mutex> lock(impl_->metrics_mu);
  ++(impl_->metrics.record(metric) ? impl_->metric_stats.metric_records
                                   : impl_->metric_stats.metric_records_dropped);
}

void OtlpExporter::flush(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl_->mu);
  if (impl_->stopping) return;
  const uint64_t ticket = ++impl_->flush_requested;
  impl_->wake.notify_one();
  impl_->done.wait_for(lock, timeout,
                       [&] { return impl_->flush_completed >= ticket || impl_->finished; });
}

void OtlpExporter::shutdown(std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> serial(impl_->shutdown_mu);
  if (!impl_->thread.joinable()) return;
  {
    std::unique_lock<std::mutex> lock(impl_->mu);
    impl_->stopping = true;
    impl_->wake.notify_one();
    if (!impl_->done.wait_for(lock, timeout, [&] { return impl_->finished; })) {
      // Out of time: abandon the transfer in flight; what is left counts as failed.
      impl_->cancel.cancel();
    }
  }
  impl_->thread.join();
}

OtlpExporterStats OtlpExporter::stats() const {
  OtlpExporterStats out;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    out = impl_->span_stats;
  }
  std::lock_guard<std::mutex> lock(impl_->metrics_mu);
  const OtlpExporterStats& m = impl_->metric_stats;
  out.metric_exports = m.metric_exports;
  out.metric_export_failures = m.metric_export_failures;
  out.metric_records = m.metric_records;
  out.metric_records_dropped = m.metric_records_dropped;
  return out;
}

const std::string& OtlpExporter::traces_url() const {
  return impl_->traces_url;
}
const std::string& OtlpExporter::metrics_url() const {
  return impl_->metrics_url;
}

}  // namespace hermes
