#include "hermes/home.hpp"

#include <cstdlib>

namespace hermes {

std::string default_home() {
  if (const char* env = std::getenv("HERMES_HOME"); env != nullptr && *env != '\0') {
    return env;
  }
  const char* home = std::getenv("HOME");
  std::string base = (home != nullptr && *home != '\0') ? home : ".";
  return base + "/.hermes";
}

std::string default_state_db_path(const std::string& home) { return home + "/state.db"; }

}  // namespace hermes
