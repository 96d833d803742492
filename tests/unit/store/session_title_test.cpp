#include "store/session_title.hpp"

#include <doctest/doctest.h>

#include "common/sha256.hpp"

using hermes::store::sanitize_title;

TEST_CASE("a title loses control and invisible characters and extra whitespace") {
  auto clean = sanitize_title(" \tRelease\x01 notes\u200b\u202e  for\n\nv2\ufeff ");
  REQUIRE(clean.ok());
  REQUIRE(clean->has_value());
  CHECK(**clean == "Release notes for v2");
}

TEST_CASE("a title of nothing but whitespace clears the title") {
  auto clean = sanitize_title(" \u200b\t ");
  REQUIRE(clean.ok());
  CHECK_FALSE(clean->has_value());
}

TEST_CASE("the title limit counts characters, not bytes") {
  std::string hundred;
  for (int i = 0; i < 100; ++i) hundred += "日";
  CHECK(sanitize_title(hundred).ok());
  auto long_title = sanitize_title(hundred + "x");
  CHECK(long_title.status().code() == hermes::StatusCode::kInvalidArgument);
  CHECK(long_title.status().message().find("101") != std::string::npos);
}

TEST_CASE("system prompts are addressed by their SHA-256") {
  using hermes::internal::sha256_hex;
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex(std::string(1000, 'a')) ==
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}
