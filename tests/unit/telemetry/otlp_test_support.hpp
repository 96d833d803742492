// What the telemetry tests share: spans and metrics to send, an exporter pointed at a
// loopback receiver (the mock server, recording every POST), and the log lines written.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/log.hpp"
#include "hermes/otlp_exporter.hpp"
#include "hermes/tracing.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing {

// A span of trace `trace` (every id byte set to that value), id `id`, parent `parent`
// (0: a root span).
inline SpanData make_span(std::string name, uint8_t trace, uint8_t id, uint8_t parent = 0) {
  SpanData span;
  span.context.trace_id.bytes.fill(trace);
  span.context.span_id.bytes.fill(id);
  span.parent_span_id.bytes.fill(parent);
  span.name = std::move(name);
  span.start_time_unix_nano = 1'700'000'000'000'000'000;
  span.end_time_unix_nano = 1'700'000'000'500'000'000;
  return span;
}

// An exporter that sends only when told to (flush, shutdown) or when a batch is full.
inline OtlpExporterOptions options_for(const MockServer& server) {
  OtlpExporterOptions options;
  options.endpoint = server.url();
  options.schedule_delay = std::chrono::hours(1);
  options.metric_export_interval = std::chrono::hours(1);
  options.export_timeout = std::chrono::seconds(20);
  return options;
}

inline MockResponse accepted() {
  MockResponse response;
  response.body = "{}";
  return response;
}

// True once the server has received `count` requests; false after 30 s (a hang guard,
// not a timing check).
inline bool wait_for_requests(const MockServer& server, std::size_t count) {
  for (int i = 0; i < 1500 && server.request_count() < count; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return server.request_count() >= count;
}

// The spans of every recorded POST to /v1/traces, in order.
inline std::vector<Json> recorded_spans(const MockServer& server) {
  std::vector<Json> out;
  for (const RecordedRequest& request : server.requests()) {
    if (request.path != "/v1/traces") continue;
    const Json body = request.json();  // Kept: the loop below refers into it.
    for (const Json& resource : body.at("resourceSpans")) {
      for (const Json& scope : resource.at("scopeSpans")) {
        for (const Json& span : scope.at("spans")) out.push_back(span);
      }
    }
  }
  return out;
}

// The value of attribute `key` in an OTLP attribute list, or null.
inline Json attribute(const Json& attributes, std::string_view key) {
  for (const Json& a : attributes) {
    if (a.at("key") == key) return a.at("value");
  }
  return nullptr;
}

// Collects log lines at warning level and above while it lives.
class LogCapture {
 public:
  LogCapture() {
    set_log_level(LogLevel::kWarning);
    set_log_sink([this](LogLevel, std::string_view line) {
      std::lock_guard<std::mutex> lock(mu_);
      lines_.emplace_back(line);
    });
  }
  ~LogCapture() { set_log_sink(nullptr); }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  bool contains(std::string_view text) const {
    std::lock_guard<std::mutex> lock(mu_);
    for (const std::string& line : lines_) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

}  // namespace hermes::testing
