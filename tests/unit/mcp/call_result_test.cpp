// Rendering tools/call results, driven by tests/fixtures/mcp/call_results.json.
#include "mcp/call_result.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "common/json_text.hpp"

using namespace hermes;

TEST_CASE("call results render as the fixture says") {
  std::ifstream in(std::string(HERMES_FIXTURES_DIR) + "/mcp/call_results.json");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  auto cases = internal::parse_json(text.str());
  REQUIRE(cases.has_value());
  REQUIRE(cases->size() >= 10);
  for (const Json& c : *cases) {
    CAPTURE(c["name"].get<std::string>());
    Result<std::string> r = internal::render_call_result(c["result"]);
    if (c.contains("error")) {
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().message() == c["error"].get<std::string>());
    } else {
      REQUIRE(r.ok());
      CHECK(internal::parse_json(*r) == std::optional<Json>(c["text"]));
    }
  }
}
