// A server's elicitation/create request, answered by the application's handler.
#pragma once

#include <string>

#include "hermes/mcp.hpp"

namespace hermes::internal {

// The result of elicitation/create with `params` from `server`, as `handler` answers it:
// InvalidArgument for params that are not a form request, Internal for a handler that
// throws or names an action the protocol does not have.
Result<Json> answer_elicitation(const McpElicitationHandler& handler, const std::string& server,
                                const Json& params);

}  // namespace hermes::internal
