// hermes/home.hpp — where hermes keeps its files: the session database, memories, skills.
#pragma once

#include "hermes/export.hpp"

#include <string>

namespace hermes {

// The hermes home directory: $HERMES_HOME when set and non-empty, else ~/.hermes
// ($HOME/.hermes). Resolved at each call, never cached, so tests can redirect it.
HERMES_API std::string default_home();

// The default session database of a home: "<home>/state.db".
HERMES_API std::string default_state_db_path(const std::string& home);

}  // namespace hermes
