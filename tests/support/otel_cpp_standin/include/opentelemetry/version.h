// Stand-in for opentelemetry-cpp (tests only): the version and ABI namespace macros.
// These headers declare, from scratch, the subset of the opentelemetry-cpp API that
// hermes/opentelemetry_sink.hpp and its tests use, with the same names, namespaces and
// signatures (ABI version 1), so the adapter compiles and runs where opentelemetry-cpp
// is not installed. Nothing here is the real library.
#pragma once

#define HERMES_OTEL_CPP_STANDIN 1

#define OPENTELEMETRY_ABI_VERSION_NO 1
#define OPENTELEMETRY_VERSION "0.0.0-hermes-standin"
#define OPENTELEMETRY_CONCAT_(a, b) a##b
#define OPENTELEMETRY_CONCAT(a, b) OPENTELEMETRY_CONCAT_(a, b)
#define OPENTELEMETRY_NAMESPACE opentelemetry::OPENTELEMETRY_CONCAT(v, OPENTELEMETRY_ABI_VERSION_NO)
#define OPENTELEMETRY_BEGIN_NAMESPACE \
  namespace opentelemetry {           \
  inline namespace OPENTELEMETRY_CONCAT(v, OPENTELEMETRY_ABI_VERSION_NO) {
#define OPENTELEMETRY_END_NAMESPACE \
  }                                 \
  }
#define OPENTELEMETRY_EXPORT
