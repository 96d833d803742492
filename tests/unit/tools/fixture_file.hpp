// Reads the data-driven cases of the tool tests from tests/fixtures.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "hermes/json.hpp"

namespace hermes::testing {

inline std::string load_fixture_text(const std::string& relative_path) {
  std::ifstream in(std::string(HERMES_FIXTURES_DIR) + "/" + relative_path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << relative_path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Json load_fixture_json(const std::string& relative_path) {
  return Json::parse(load_fixture_text(relative_path));
}

}  // namespace hermes::testing
