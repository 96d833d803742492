#include "store/fts_phrases.hpp"

#include <doctest/doctest.h>

#include "hermes/json.hpp"
#include "unit/store/sqlite_test_support.hpp"

using hermes::store::fts_phrases;

TEST_CASE("a MATCH expression is split into its phrases in FTS5's order") {
  const auto fixture = hermes::testing::load_store_fixture("fts_phrases_cases.json");
  REQUIRE(fixture["cases"].size() > 20);
  for (const auto& c : fixture["cases"]) {
    const std::string match = c["match"];
    CAPTURE(match);
    const auto phrases = fts_phrases(match);
    if (c["phrases"].is_null()) {
      CHECK_FALSE(phrases.has_value());
      continue;
    }
    REQUIRE(phrases.has_value());
    CHECK(*phrases == c["phrases"].get<std::vector<std::string>>());
  }
}

TEST_CASE("the phrase lexer survives long, NUL-laden and unbalanced input") {
  CHECK(fts_phrases(std::string(10'000, 'a'))->size() == 1);
  CHECK(fts_phrases(std::string(10'000, '"'))->size() == 1);  // Doubled quotes inside one.
  CHECK_FALSE(fts_phrases(std::string(10'001, '"')).has_value());
  CHECK_FALSE(fts_phrases(std::string("a\0b", 3)).has_value());
  CHECK(fts_phrases("\xff\xfe")->size() == 1);  // Bytes from 0x80 up are word bytes to FTS5.
}
