// Typed access to a tool's arguments. Models send numbers and booleans as strings often
// enough that both spellings are accepted; anything else of the wrong type is an
// InvalidArgument that names the field, which the model reads as {"error": ...}.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// A required string argument; missing, null or not a string is an error.
Result<std::string> arg_string(const Json& args, std::string_view key);
// An optional string argument: nullopt when absent or null.
Result<std::optional<std::string>> arg_optional_string(const Json& args, std::string_view key);
// OK when each of `keys` is absent, null or a string; otherwise the error arg_string
// gives for the first that is not. For tools that read their text arguments leniently,
// so that a value of the wrong type is not mistaken for a missing one.
Status check_string_args(const Json& args, std::initializer_list<std::string_view> keys);
// An optional integer: a JSON integer, an integral float, or a string spelling one.
Result<std::optional<int64_t>> arg_optional_int(const Json& args, std::string_view key);
// An optional boolean (true/false, or "true"/"false"/"1"/"0"/"yes"/"no"), else `fallback`.
Result<bool> arg_bool(const Json& args, std::string_view key, bool fallback);

// What a tool that did nothing returns: {"success": false, "error": error}.
inline Json tool_failure(const std::string& error) {
  return {{"success", false}, {"error", error}};
}

// The name of a JSON value's type as a model would say it ("string", "integer", ...).
std::string json_type_name(const Json& value);

}  // namespace hermes::internal
