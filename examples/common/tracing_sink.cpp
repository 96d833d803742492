#include "tracing_sink.hpp"

#include <cstdio>

#include "hermes/otlp_exporter.hpp"

namespace hermes_cli {

std::shared_ptr<hermes::TraceSink> tracing_sink_from_environment(const char* program) {
  auto exporter = hermes::OtlpExporter::from_environment();
  if (!exporter.ok()) {
    std::fprintf(stderr, "%s: tracing is off: %s\n", program,
                 exporter.status().to_string().c_str());
    return nullptr;
  }
  return *exporter;
}

}  // namespace hermes_cli
