// Listing and searching saved sessions, for --list/--search and /sessions, /search.
#pragma once

#include <string>

#include "hermes/hermes.hpp"
#include "terminal.hpp"

namespace hermes_cli {

// Prints the most recent sessions, marking `current` with '*'.
hermes::Status print_sessions(Terminal& out, hermes::SessionStore& store,
                              const std::string& current, int limit);

// Prints the search hits for `query`.
hermes::Status print_search(Terminal& out, hermes::SessionStore& store, const std::string& query,
                            int limit);

}  // namespace hermes_cli
