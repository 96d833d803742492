// hermes/postgres_store.hpp — the session store on a PostgreSQL server, for fleets of
// processes on many machines sharing one conversation history.
#pragma once

#include <memory>
#include <string>

#include "hermes/export.hpp"
#include "hermes/session_store.hpp"

namespace hermes {

// Options of the PostgreSQL store.
struct PostgresStoreOptions {
  // The schema the tables live in (created if missing); empty for the connection's
  // search_path (normally "public"). Lets several installations share one database.
  std::string schema;
  // Connections the store keeps open; concurrent calls beyond this wait for one.
  int max_connections = 4;
  // Seconds to wait for the server when connecting (libpq's connect_timeout).
  int connect_timeout_seconds = 10;
};

// Connects to the server named by `conninfo` (a libpq connection string or URI, e.g.
// "host=127.0.0.1 port=5432 dbname=hermes user=hermes") and creates the schema if needed:
// the same logical tables as the SQLite store, full-text search through a tsvector GIN
// index and substring/CJK search through pg_trgm. Unavailable (with the server's message)
// when the server cannot be reached; Unimplemented when this build has no libpq. The
// caller owns the result.
//
// Thread-safety: the store is safe for concurrent use by many threads, and any number of
// processes on any number of hosts may share one database: multi-statement writes run in
// transactions that are retried on serialization failures, and the compression lease is
// taken with SELECT ... FOR UPDATE.
HERMES_API Result<std::shared_ptr<SessionStore>> open_postgres_store(
    const std::string& conninfo, const PostgresStoreOptions& options = {});

}  // namespace hermes
