// The session_search tool's modes, over the public SessionStore API.
#pragma once

#include <string>

#include "hermes/json.hpp"
#include "hermes/session_store.hpp"

namespace hermes::tools {

// The JSON Schema of the arguments and the description the model reads.
Json session_search_parameters();
std::string session_search_description();

// Runs the tool for `arguments` on behalf of `current_session_id` (may be empty). The
// result is the tool's JSON text; errors the model should read come back as
// {"success": false, "error": ...}.
std::string run_session_search(SessionStore& store, const std::string& current_session_id,
                               const Json& arguments);

}  // namespace hermes::tools
