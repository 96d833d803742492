// The errors every store backend words the same way, so callers and tests see one text
// whichever backend answered.
#pragma once

#include <string>

#include "hermes/status.hpp"

namespace hermes::store {

inline Status session_not_found(const std::string& id) {
  return Status::not_found("no session '" + id + "'");
}

inline Status title_taken(const std::string& title, const std::string& holder) {
  return Status::already_exists("title '" + title + "' is already used by session '" + holder +
                                "'");
}

}  // namespace hermes::store
