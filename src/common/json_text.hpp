// JSON to and from text without exceptions and without choking on invalid UTF-8.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// Compact JSON text ("," and ":" separators, keys sorted). Invalid UTF-8 inside strings
// is replaced by U+FFFD instead of throwing.
std::string dump_json(const Json& value);

// Appends the text dump_json would return for `value` to `out`.
void append_json(std::string& out, const Json& value);
// The same for a string value, without making a Json of it.
void append_json_string(std::string& out, std::string_view text);

// Indented JSON text for humans, with the same UTF-8 handling.
std::string dump_json_pretty(const Json& value);

// The deepest nesting of arrays and objects any parse below accepts. Text from a model, a
// provider or an MCP server is parsed here; a tree deeper than this would overflow the
// stack of the recursive code that copies, compares and writes Json values (nlohmann's
// own parser does not recurse, so the tree would be built first and crash later). Real
// tool arguments and protocol messages stay below 20 levels.
inline constexpr int kMaxJsonDepth = 256;

// Whether `text` opens more than `limit` arrays and objects inside one another (brackets
// inside strings do not count). Linear, without recursion; meant for text about to be
// parsed, so it does not check that the text is JSON.
bool json_nesting_exceeds(std::string_view text, int limit = kMaxJsonDepth);

// Parses `text`. The error says why it is not a value: ResourceExhausted for nesting
// deeper than kMaxJsonDepth, InvalidArgument for anything else that is not JSON. Leading
// and trailing whitespace is allowed.
Result<Json> parse_json_checked(std::string_view text);

// parse_json_checked without the reason: nullopt when `text` is not JSON (or is nested
// deeper than kMaxJsonDepth).
std::optional<Json> parse_json(std::string_view text);

// The message parse_json_checked gives for a value nested too deeply, for callers that
// check with json_nesting_exceeds() themselves.
std::string json_too_deep_message();

// The string value of `object[key]`; "" when `object` is not an object, has no such
// member or the member is not a string.
std::string string_member(const Json& object, const char* key);

// A JSON number as an integer, saturating instead of overflowing: fractions are cut,
// values beyond int64_t become its limits, NaN becomes 0. Numbers from a model, a
// provider or a server can be anything, and a cast of an unrepresentable double is
// undefined behaviour. nullopt when `value` is not a number.
std::optional<int64_t> json_integer(const Json& value);

}  // namespace hermes::internal
