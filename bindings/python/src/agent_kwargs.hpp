// hermes.Agent's keyword arguments, read into AgentOptions.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "hermes/agent.hpp"
#include "hermes/mcp.hpp"
#include "turn_events.hpp"

namespace hermes::python {

// Reads the keyword arguments of hermes.Agent(...). Raises TypeError for an unknown
// keyword, a missing model or a value of the wrong type, and ValueError for a bad value;
// the C++ validation (Agent::create) checks the rest. Callbacks also emit into `tap`.
// The MCP servers of mcp_servers=, connected into the agent's registry, go to
// `mcp_servers`: the caller keeps them for as long as the agent.
// A JSON Schema dict, or a class (or instance) with model_json_schema(), as pydantic's.
// Raises TypeError for anything else; `what` names the argument.
Json output_schema_from_python(const pybind11::object& schema, const char* what);

AgentOptions agent_options_from_kwargs(const pybind11::kwargs& kwargs,
                                       std::shared_ptr<EventTap> tap,
                                       std::unique_ptr<McpServers>& mcp_servers);

}  // namespace hermes::python
