// hermes.Agent(memory_provider=obj): a Python object as hermes::MemoryProvider.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "hermes/memory.hpp"
#include "hermes/tool.hpp"

namespace hermes::python {

// The provider behind `provider`, an object with any of the methods of upstream's
// MemoryProvider. `platform` is passed to its initialize(). Raises TypeError for an
// object without any of them.
std::shared_ptr<MemoryProvider> memory_provider_from_python(const pybind11::handle& provider,
                                                            const std::string& platform);

// The tools `provider` offers (upstream's get_tool_schemas(), each schema an OpenAI
// function definition), each run by its handle_tool_call(tool_name, args). Empty unless
// it has both methods. Raises what get_tool_schemas() raises, and TypeError for a schema
// that is not a dict. The tools are in the "memory_provider" toolset.
std::vector<ToolSpec> memory_provider_tools(const pybind11::handle& provider);

}  // namespace hermes::python
