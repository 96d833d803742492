// How the command-line programs (hermes, hermes-batch) send their spans and metrics to an
// OpenTelemetry collector: when the standard OTEL_* variables ask for it
// (OTEL_EXPORTER_OTLP_ENDPOINT and the rest, see hermes/otlp_exporter.hpp).
#pragma once

#include <chrono>
#include <memory>

#include "hermes/tracing.hpp"

namespace hermes_cli {

// The OTLP exporter the environment describes, or nullptr when it describes none or
// describes one that cannot be made (then a line on stderr, prefixed with `program`,
// says why: a bad endpoint must not stop the program).
std::shared_ptr<hermes::TraceSink> tracing_sink_from_environment(const char* program);

// Flushes `sink` (when there is one) as it goes out of scope, so that the last turn's
// spans leave before the program exits.
class FlushAtExit {
 public:
  explicit FlushAtExit(std::shared_ptr<hermes::TraceSink> sink) : sink_(std::move(sink)) {}
  ~FlushAtExit() {
    if (sink_) sink_->flush(std::chrono::seconds(5));
  }
  FlushAtExit(const FlushAtExit&) = delete;
  FlushAtExit& operator=(const FlushAtExit&) = delete;

 private:
  std::shared_ptr<hermes::TraceSink> sink_;
};

}  // namespace hermes_cli
