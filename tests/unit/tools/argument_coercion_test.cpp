#include <doctest/doctest.h>

#include "tools/argument_coercion.hpp"

using hermes::Json;
using hermes::internal::coerce_tool_arguments;

namespace {
const Json kSchema = Json::parse(R"({
  "type": "object",
  "properties": {
    "count": {"type": "integer"},
    "ratio": {"type": "number"},
    "flag": {"type": "boolean"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "ids": {"type": "array", "items": {"type": "integer"}},
    "opts": {"type": "object", "properties": {"depth": {"type": "integer"}}},
    "name": {"type": "string"},
    "maybe": {"type": ["integer", "null"]},
    "either": {"anyOf": [{"type": "boolean"}, {"type": "string"}]}
  }
})");
}  // namespace

TEST_CASE("strings are coerced to the types the schema asks for") {
  Json out = coerce_tool_arguments(kSchema, Json::parse(R"({
    "count": "42", "ratio": "0.5", "flag": "true", "tags": "solo", "ids": "[1, 2]",
    "opts": "{\"depth\": \"3\"}", "name": "7", "maybe": "null", "either": "yes"})"));
  CHECK(out["count"] == 42);
  CHECK(out["ratio"] == 0.5);
  CHECK(out["flag"] == true);
  CHECK(out["tags"] == Json::array({"solo"}));
  CHECK(out["ids"] == Json::array({1, 2}));
  CHECK(out["opts"]["depth"] == 3);
  CHECK(out["name"] == "7");
  CHECK(out["maybe"].is_null());
  CHECK(out["either"] == true);
}

TEST_CASE("values that cannot be coerced are left as they came") {
  Json out = coerce_tool_arguments(kSchema, Json::parse(R"({
    "count": "many", "ratio": "NaN", "flag": "perhaps", "opts": "[1]", "extra": "x",
    "ids": [1, "2"]})"));
  CHECK(out["count"] == "many");
  CHECK(out["ratio"] == "NaN");
  CHECK(out["flag"] == "perhaps");
  CHECK(out["opts"] == "[1]");
  CHECK(out["extra"] == "x");
  CHECK(out["ids"] == Json::array({1, 2}));
  CHECK(coerce_tool_arguments(kSchema, Json::parse(R"({"count": "3.0"})"))["count"] == 3);
  CHECK(coerce_tool_arguments(kSchema, Json::parse(R"({"count": "3.5"})"))["count"] == "3.5");
}

TEST_CASE("arguments that are not an object become an empty object") {
  CHECK(coerce_tool_arguments(kSchema, Json::array({1})) == Json::object());
  CHECK(coerce_tool_arguments(Json(), Json::parse(R"({"a":"1"})")) == Json::parse(R"({"a":"1"})"));
}

TEST_CASE("an integral float beyond the integer range is left as it came") {
  // Converting 1e300 to long long was undefined behaviour (found by fuzz/tool_arguments).
  Json out = coerce_tool_arguments(kSchema, Json::parse(R"({"count": "1e300", "maybe": "-9.3e18"})"));
  CHECK(out["count"] == "1e300");
  CHECK(out["maybe"] == "-9.3e18");
  CHECK(coerce_tool_arguments(kSchema, Json::parse(R"({"count": "-9.2e18"})"))["count"] ==
        -9200000000000000000LL);
}

TEST_CASE("a schema whose nullable is not a boolean does not allow null") {
  // value("nullable", false) threw on a string (found by fuzz/tool_arguments).
  const Json schema = Json::parse(
      R"({"type": "object", "properties": {"n": {"type": "integer", "nullable": "yes"},
                                            "m": {"type": "integer", "nullable": true}}})");
  Json out = coerce_tool_arguments(schema, Json::parse(R"({"n": "null", "m": "null"})"));
  CHECK(out["n"] == "null");
  CHECK(out["m"].is_null());
}
