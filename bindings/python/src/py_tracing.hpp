// hermes.Agent(trace_sink=...): a hermes.OtlpExporter, or a Python object with
// on_end(span) as a TraceSink.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "hermes/tracing.hpp"

namespace hermes::python {

// Raises TypeError for an object that is neither.
std::shared_ptr<TraceSink> trace_sink_from_python(const pybind11::handle& sink);

void register_tracing(pybind11::module_& m);

}  // namespace hermes::python
