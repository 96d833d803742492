#include "context/text_cut.hpp"

#include <doctest/doctest.h>

#include "common/number_format.hpp"

namespace hermes::internal {
namespace {

TEST_CASE("cuts count characters and never split one") {
  const std::string text =
      "a\xE4\xB8\xAD"
      "b\xE6\x96\x87"
      "c";  // a中b文c
  CHECK(utf8_length(text) == 5);
  CHECK(utf8_head(text, 2) == "a\xE4\xB8\xAD");
  CHECK(utf8_tail(text, 2) ==
        "\xE6\x96\x87"
        "c");
  CHECK(utf8_head(text, 10) == text);
  CHECK(utf8_tail(text, 10) == text);
  CHECK(utf8_tail(text, 0).empty());
}

TEST_CASE("elided text ends with the marker within the limit") {
  CHECK(elide("short", 10, "...") == "short");
  CHECK(elide("0123456789abc", 10, "...") == "0123456...");
}

TEST_CASE("thousands are separated by commas whatever the locale") {
  CHECK(with_thousands(0) == "0");
  CHECK(with_thousands(999) == "999");
  CHECK(with_thousands(1000) == "1,000");
  CHECK(with_thousands(1234567) == "1,234,567");
  CHECK(with_thousands(-45000) == "-45,000");
}

TEST_CASE("whitespace runs collapse to single spaces") {
  CHECK(collapse_whitespace("  a \n\t b  c ") == "a b c");
  CHECK(collapse_whitespace(" \n ").empty());
}

}  // namespace
}  // namespace hermes::internal
