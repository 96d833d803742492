// Reading the recorded test data in tests/fixtures.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hermes/json.hpp"

namespace hermes::testing {

inline std::string fixture_path(std::string_view relative) {
  return std::string(HERMES_FIXTURES_DIR) + "/" + std::string(relative);
}

inline std::string read_fixture(std::string_view relative) {
  std::ifstream in(fixture_path(relative), std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + std::string(relative));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Json read_json_fixture(std::string_view relative) {
  return Json::parse(read_fixture(relative));
}

}  // namespace hermes::testing
