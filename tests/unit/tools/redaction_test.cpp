// The secret redactor, driven by tests/fixtures/redaction/cases.json.
#include "hermes/redaction.hpp"

#include <doctest/doctest.h>

#include "safety/redaction_passes.hpp"
#include "unit/tools/fixture_file.hpp"

using namespace hermes;

TEST_CASE("every fixture string is redacted exactly as expected") {
  const Json cases = hermes::testing::load_fixture_json("redaction/cases.json");
  REQUIRE(cases.size() >= 60);
  for (const Json& c : cases) {
    const std::string text = c.at("text").get<std::string>();
    CAPTURE(text);
    const Json options = c.value("options", Json::object());
    RedactionOptions o;
    o.file_read = options.value("file_read", false);
    o.code_file = options.value("code_file", false);
    o.redact_url_credentials = options.value("redact_url_credentials", false);
    const std::string got =
        c.contains("terminal_command")
            ? internal::redact_terminal_output(text, c.at("terminal_command").get<std::string>())
            : redact_sensitive_text(text, o);
    CHECK(got == c.at("expected").get<std::string>());
  }
}

TEST_CASE("masks keep six and four characters of long tokens and nothing of short ones") {
  CHECK(internal::mask_token("") == "***");
  CHECK(internal::mask_token("abcdefghijklmnopq") == "***");  // 17 characters.
  CHECK(internal::mask_token("abcdefghijklmnopqr") == "abcdef...opqr");
  CHECK(internal::mask_token_nonreusable("ghp_abcdef") ==
        "\xC2\xAB"
        "redacted:ghp_\xE2\x80\xA6\xC2\xBB");
  CHECK(internal::mask_token_nonreusable("opaque") ==
        "\xC2\xAB"
        "redacted-secret\xC2\xBB");
}

TEST_CASE("redacting twice changes nothing more") {
  const std::string once = redact_sensitive_text(
      "OPENAI_API_KEY=sk-abcdefghijklmnop1234567890 ghp_1234567890abcdefghij");
  CHECK(redact_sensitive_text(once) == once);
}

TEST_CASE("a secret inside half a megabyte of output is found without blowing up") {
  std::string big(1 << 18, 'x');
  big += " ghp_1234567890abcdefghijklmnop ";
  big += std::string(1 << 18, '7');
  const std::string out = redact_sensitive_text(big);
  CHECK(out.find("ghp_1234567890abcdefghijklmnop") == std::string::npos);
  CHECK(out.find("ghp_12...mnop") != std::string::npos);
}

TEST_CASE("secret-bearing files are recognised by name") {
  CHECK(internal::is_secret_bearing_path("/srv/app/.env", ""));
  CHECK(internal::is_secret_bearing_path("~/.bashrc", ""));
  CHECK(internal::is_secret_bearing_path("/home/u/.hermes/config.yaml", ""));
  CHECK(internal::is_secret_bearing_path("/opt/h/config.yaml", "/opt/h"));
  CHECK_FALSE(internal::is_secret_bearing_path("/srv/app/config.yaml", ""));
  CHECK_FALSE(internal::is_secret_bearing_path("/srv/app/.env.example", ""));
}
