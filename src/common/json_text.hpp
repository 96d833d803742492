// JSON to and from text without exceptions and without choking on invalid UTF-8.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/json.hpp"

namespace hermes::internal {

// Compact JSON text ("," and ":" separators, keys sorted). Invalid UTF-8 inside strings
// is replaced by U+FFFD instead of throwing.
std::string dump_json(const Json& value);

// Indented JSON text for humans, with the same UTF-8 handling.
std::string dump_json_pretty(const Json& value);

// Parses `text`; nullopt when it is not JSON. Leading and trailing whitespace is allowed.
std::optional<Json> parse_json(std::string_view text);

// The string value of `object[key]`; "" when `object` is not an object, has no such
// member or the member is not a string.
std::string string_member(const Json& object, const char* key);

// A JSON number as an integer, saturating instead of overflowing: fractions are cut,
// values beyond int64_t become its limits, NaN becomes 0. Numbers from a model, a
// provider or a server can be anything, and a cast of an unrepresentable double is
// undefined behaviour. nullopt when `value` is not a number.
std::optional<int64_t> json_integer(const Json& value);

}  // namespace hermes::internal
