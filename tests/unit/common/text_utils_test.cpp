// The ASCII text helpers: case folding leaves every other byte alone whatever the locale.
#include "common/text_utils.hpp"

#include <doctest/doctest.h>

#include <clocale>
#include <string>

using namespace hermes::internal;

TEST_CASE("lower_ascii and upper_ascii fold A-Z only") {
  CHECK(lower_ascii("MiXeD 123 \xC3\x89") == "mixed 123 \xC3\x89");  // É stays as it is.
  CHECK(upper_ascii("role_user") == "ROLE_USER");
  CHECK(lower_ascii('Q') == 'q');
  CHECK(upper_ascii('\xE9') == '\xE9');
}

TEST_CASE("lower_ascii does not depend on the process locale") {
  const std::string before = std::setlocale(LC_CTYPE, nullptr);
  if (std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) std::setlocale(LC_CTYPE, "");
  CHECK(lower_ascii("\xC4\xB0I") == "\xC4\xB0i");
  std::setlocale(LC_CTYPE, before.c_str());
}

TEST_CASE("iequals, starts_with, ends_with and trim_ascii") {
  CHECK(iequals("Content-Type", "content-type"));
  CHECK_FALSE(iequals("abc", "abcd"));
  CHECK(starts_with("https://x", "https://"));
  CHECK_FALSE(starts_with("http", "https"));
  CHECK(ends_with("API_TOKEN", "_TOKEN"));
  CHECK_FALSE(ends_with("KEN", "_TOKEN"));
  CHECK(trim_ascii(" \t x y \r\n") == "x y");
  CHECK(trim_ascii(" \f\v ").empty());
}
