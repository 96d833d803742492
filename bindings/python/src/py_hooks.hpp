// hermes.Agent(hooks=[...]): Python plugin objects as hermes::Hooks.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "hermes/hooks.hpp"

namespace hermes::python {

// One Hooks per plugin object of `plugins` (an iterable). Raises TypeError for a string,
// a non-iterable, or an object without any hook method.
std::vector<std::shared_ptr<Hooks>> hooks_from_python(const pybind11::handle& plugins);

}  // namespace hermes::python
