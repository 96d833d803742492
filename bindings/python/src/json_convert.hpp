// Conversion between hermes::Json and Python objects (dict, list, str, int, float,
// bool, None).
#pragma once

#include <pybind11/pybind11.h>

#include "hermes/json.hpp"

namespace hermes::python {

pybind11::object to_python(const Json& value);

// Raises TypeError naming `what` for objects that have no JSON form.
Json from_python(const pybind11::handle& object, const char* what = "value");

}  // namespace hermes::python
