// dump_json writes exactly what nlohmann's compact dump writes (with invalid UTF-8
// replaced), only faster: checked on crafted strings and on every JSON fixture.
#include "common/json_text.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using hermes::Json;
using hermes::internal::dump_json;
using hermes::internal::json_integer;

namespace {

std::string reference(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("every byte below 0x80 is written as the reference writer writes it") {
  std::string all;
  for (int b = 1; b < 0x80; ++b) all.push_back(static_cast<char>(b));
  const Json value = {{"all", all}, {"tail", std::string("x\0y", 3)}, {"k\"ey\n", 1}};
  CHECK(dump_json(value) == reference(value));
}

TEST_CASE("multibyte text, invalid UTF-8 and encoded surrogates match the reference") {
  for (const std::string& text :
       {std::string("caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x98\x80 \"quoted\"\t"),
        std::string("broken \xC3 here"), std::string("\xED\xA0\x80 surrogate"),
        std::string("overlong \xC0\xAF"), std::string("\xF4\x90\x80\x80 too high"),
        std::string(1000, 'a') + "\xE2\x82\xAC" + std::string(13, '\\')}) {
    CAPTURE(text);
    const Json value = Json::array({text, {{"t", text}}});
    CHECK(dump_json(value) == reference(value));
  }
}

TEST_CASE("numbers, booleans, null and nesting match the reference") {
  const Json value = Json::parse(
      R"({"i":-9223372036854775808,"u":18446744073709551615,"f":0.1,"e":1e300,"z":-0.0,)"
      R"("b":[true,false,null],"o":{},"a":[],"n":{"x":[{"y":[1,2.5,"s"]}]}})");
  CHECK(dump_json(value) == reference(value));
}

TEST_CASE("every JSON fixture of the test suite is written as the reference writes it") {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(HERMES_FIXTURES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const Json value = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) continue;
    CAPTURE(entry.path().string());
    CHECK(dump_json(value) == reference(value));
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("json_integer saturates numbers no integer can hold instead of overflowing") {
  CHECK(json_integer(Json(42)) == 42);
  CHECK(json_integer(Json(-7)) == -7);
  CHECK(json_integer(Json(3.9)) == 3);
  CHECK(json_integer(Json(-3.9)) == -3);
  CHECK(json_integer(Json::parse("7.77778e+122")) == INT64_MAX);
  CHECK(json_integer(Json::parse("-1e300")) == INT64_MIN);
  CHECK(json_integer(Json::parse("9223372036854775808.0")) == INT64_MAX);
  CHECK(json_integer(Json::parse("18446744073709551615")) == INT64_MAX);
  CHECK(json_integer(Json(std::nan(""))) == 0);
  CHECK_FALSE(json_integer(Json("12")).has_value());
  CHECK_FALSE(json_integer(Json()).has_value());
}

namespace {

hermes::StatusCode parse_json_checked_code(std::string_view text) {
  return hermes::internal::parse_json_checked(text).status().code();
}

// `levels` arrays inside one another, closed or not.
std::string nested_arrays(std::size_t levels, bool closed = true) {
  return std::string(levels, '[') + (closed ? std::string(levels, ']') : std::string());
}

}  // namespace

TEST_CASE("JSON nested a hundred thousand levels deep is refused, not built") {
  using hermes::internal::parse_json;
  using hermes::internal::parse_json_checked;
  for (const std::string& text : {nested_arrays(100000), nested_arrays(100000, false),
                                  "{\"a\":" + nested_arrays(100000) + "}"}) {
    CHECK_FALSE(parse_json(text).has_value());
    const hermes::Result<Json> checked = parse_json_checked(text);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.status().code() == hermes::StatusCode::kResourceExhausted);
    CHECK(checked.status().message() == "JSON nested deeper than 256 levels");
  }
}

TEST_CASE("JSON nested exactly to the limit parses; one level more does not") {
  using hermes::internal::kMaxJsonDepth;
  using hermes::internal::parse_json;
  CHECK(parse_json(nested_arrays(kMaxJsonDepth)).has_value());
  CHECK_FALSE(parse_json(nested_arrays(kMaxJsonDepth + 1)).has_value());
  std::string objects;
  for (int i = 0; i < kMaxJsonDepth; ++i) objects += "{\"k\":";
  objects += "1" + std::string(kMaxJsonDepth, '}');
  CHECK(parse_json(objects).has_value());
}

TEST_CASE("brackets inside strings do not count towards the nesting") {
  using hermes::internal::json_nesting_exceeds;
  using hermes::internal::parse_json;
  const std::string in_string =
      "{\"text\":\"" + std::string(5000, '[') + "\\\"" + std::string(5000, '{') + "\"}";
  CHECK_FALSE(json_nesting_exceeds(in_string));
  REQUIRE(parse_json(in_string).has_value());
  // An escaped backslash ends before the quote: the brackets after it are structure.
  CHECK(json_nesting_exceeds("[\"\\\\\"," + nested_arrays(300) + "]"));
  CHECK_FALSE(json_nesting_exceeds("[\"\\\"" + std::string(300, '[') + "\"]"));
  CHECK(parse_json_checked_code("not json") == hermes::StatusCode::kInvalidArgument);
}
