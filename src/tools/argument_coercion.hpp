// Argument coercion: models often send numbers, booleans and lists as
// strings. Before a handler runs, each argument whose schema property says otherwise is
// converted when that can be done without guessing; anything else is left as it came.
#pragma once

#include "hermes/json.hpp"

namespace hermes::internal {

// `arguments` (an object) coerced to `schema` (the tool's parameters). A non-object
// becomes {}.
Json coerce_tool_arguments(const Json& schema, Json arguments);

}  // namespace hermes::internal
