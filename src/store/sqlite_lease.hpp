// The compression-lease check that publishing operations run inside their transaction.
#pragma once

#include <string>

#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// FailedPrecondition unless `holder` holds the session's compression lease.
Status verify_lease(Connection& db, const std::string& session_id, const std::string& holder);

}  // namespace hermes::store
