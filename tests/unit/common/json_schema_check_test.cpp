// The JSON Schema check behind structured output: schemas refused with the place named,
// and values checked keyword by keyword.
#include "common/json_schema_check.hpp"

#include <doctest/doctest.h>

#include <string>

using hermes::Json;
using hermes::internal::check_schema;
using hermes::internal::schema_violation;

namespace {

std::string violation(const char* value, const char* schema) {
  return schema_violation(Json::parse(value), Json::parse(schema)).value_or("");
}

}  // namespace

TEST_CASE("a value that matches has no violation") {
  const char* schema = R"({"type": "object", "properties": {
      "name": {"type": "string", "minLength": 1},
      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
      "score": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
      "kind": {"enum": ["a", "b"]}},
    "required": ["name"], "additionalProperties": false})";
  CHECK(violation(R"({"name": "x", "tags": ["a"], "score": null, "kind": "b"})", schema).empty());
  CHECK(violation(R"({"name": "x", "score": 0.5})", schema).empty());
}

TEST_CASE("each keyword names the place and what is wrong") {
  const char* object = R"({"type": "object", "properties": {"n": {"type": "integer"}},
                           "required": ["n"], "additionalProperties": false})";
  CHECK(violation("[]", object) == "$: expected object, got array");
  CHECK(violation("{}", object) == "$: missing required property 'n'");
  CHECK(violation(R"({"n": 1.5})", object) == "$.n: expected integer, got number");
  CHECK(violation(R"({"n": 2.0})", object).empty());  // A whole number is an integer.
  CHECK(violation(R"({"n": 1, "m": 2})", object) == "$: unexpected property 'm'");
  CHECK(violation(R"([1, "x"])", R"({"type": "array", "items": {"type": "integer"}})") ==
        "$[1]: expected integer, got string");
  CHECK(violation("5", R"({"type": "integer", "maximum": 4})") == "$: must be at most 4");
  CHECK(violation("0", R"({"exclusiveMinimum": 0})") == "$: must be more than 0");
  CHECK(violation(R"("ab")", R"({"maxLength": 1})") == "$: longer than 1 characters");
  CHECK(violation(R"("\u00e9")", R"({"maxLength": 1})").empty());  // Characters, not bytes.
  CHECK(violation(R"("c")", R"({"enum": ["a", "b"]})") == R"($: must be one of ["a","b"])");
  CHECK(violation("1", R"({"const": 2})") == "$: must be 2");
  CHECK(violation("[]", R"({"minItems": 1})") == "$: fewer than 1 items");
}

TEST_CASE("anyOf, oneOf, allOf and $ref into $defs") {
  const char* schema = R"({"type": "object", "$defs": {"pos": {"type": "integer", "minimum": 1}},
      "properties": {"a": {"$ref": "#/$defs/pos"},
                     "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                     "c": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}})";
  CHECK(violation(R"({"a": 3, "b": "x", "c": 1.5})", schema).empty());
  CHECK(violation(R"({"a": 0})", schema) == "$.a: must be at least 1");
  CHECK(violation(R"({"b": true})", schema).find("no alternative of anyOf matches") !=
        std::string::npos);
  CHECK(violation(R"({"c": 1})", schema) == "$.c: matches 2 alternatives of oneOf, not one");
}

TEST_CASE("schemas are refused naming the place, and untrusted nesting is bounded") {
  CHECK(check_schema(Json::parse(R"({"type": "object"})"), "s").ok());
  CHECK(check_schema(Json::parse("[]"), "s").message() ==
        "s: must be a JSON Schema object, got array");
  CHECK(check_schema(Json::parse(R"({"type": "array"})"), "s")
            .message()
            .find("s: the answer must be a JSON object") == 0);
  CHECK(check_schema(Json::parse(R"({"type": "object", "required": "a"})"), "s").message() ==
        "s.required: must be a list of names");
  CHECK(check_schema(Json::parse(R"({"type": "object", "properties": {"a": {"minLength": -1}}})"),
                     "s")
            .message() == "s.properties.a.minLength: must be a whole number, 0 or more");
  Json deep = Json::parse(R"({"type": "object"})");
  for (int i = 0; i < 100; ++i) deep = Json{{"type", "object"}, {"properties", {{"x", deep}}}};
  CHECK(check_schema(deep, "s").message().find("nested more than 64 deep") != std::string::npos);
  // A $ref cycle is checked once and bounded when values are checked.
  const Json cycle = Json::parse(R"({"type": "object", "$defs": {"n": {"$ref": "#/$defs/n"}},
                                     "properties": {"a": {"$ref": "#/$defs/n"}}})");
  CHECK(check_schema(cycle, "s").ok());
  CHECK(schema_violation(Json::parse(R"({"a": 1})"), cycle).value_or("").find("64 deep") !=
        std::string::npos);
}
