// A JSON Schema check for structured output: the schema a caller gives is checked once
// (check_schema), and each answer against it (schema_violation). The keywords checked
// are those the model services accept for structured output: type (one or a list),
// properties, required, additionalProperties, items, enum, const, anyOf, oneOf, allOf,
// the numeric and length bounds, and $ref into the schema's own $defs/definitions.
// Other keywords (format, pattern, descriptions) are accepted and not checked. The
// schema and the value are untrusted: depth and $ref chains are bounded.
#pragma once

#include <optional>
#include <string>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// InvalidArgument (naming `name` and the place) unless `schema` is an object schema whose
// keywords have the right types, every $ref resolves, and it nests at most 64 deep.
Status check_schema(const Json& schema, const std::string& name);

// The first way `value` does not match `schema` (a schema check_schema accepted), e.g.
// "$.items[2].price: expected number, got string"; nullopt when it matches.
std::optional<std::string> schema_violation(const Json& value, const Json& schema);

}  // namespace hermes::internal
