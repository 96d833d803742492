// hermes/json.hpp — the JSON type used wherever structured data crosses the public API.
#pragma once

#include <nlohmann/json.hpp>

namespace hermes {

// nlohmann::json, ordered by key. Tool arguments, tool schemas, message extras and the
// results of run_conversation() are Json values.
using Json = nlohmann::json;

}  // namespace hermes
