// The tool definitions of a ProviderRequest, read once for every wire format: each entry
// is {"type":"function","function":{name, description, parameters}} or a bare function
// object {"name", "description", "parameters"}.
#pragma once

#include <vector>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

struct ToolDefinition {
  const Json* tool = nullptr;      // The entry as given.
  const Json* function = nullptr;  // Its function object: has a string "name".
  bool wrapped = false;            // The entry is the {"type":"function",...} envelope.
};

// The definitions in order; the pointers point into `tools`. InvalidArgument names the
// first entry that is not a function definition.
Result<std::vector<ToolDefinition>> read_tool_definitions(const Json& tools);

}  // namespace hermes::internal
