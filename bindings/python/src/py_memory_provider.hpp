// hermes.Agent(memory_provider=obj): a Python object as hermes::MemoryProvider.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "hermes/memory.hpp"

namespace hermes::python {

// The provider behind `provider`, an object with any of the methods of upstream's
// MemoryProvider. `platform` is passed to its initialize(). Raises TypeError for an
// object without any of them.
std::shared_ptr<MemoryProvider> memory_provider_from_python(const pybind11::handle& provider,
                                                            const std::string& platform);

}  // namespace hermes::python
