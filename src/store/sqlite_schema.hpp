// The on-disk schema of the state database, shared with the upstream Hermes runtime so
// either program can open a file the other wrote.
#pragma once

#include <string>
#include <vector>

#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"
#include "store/sqlite_fts_schema.hpp"

namespace hermes::store {

// The newest upstream schema version; files this library creates carry it.
inline constexpr int kSchemaVersion = 30;
// What an existing file holds, found without writing anything.
struct SchemaProbe {
  bool empty = true;  // No tables at all: a new database.
  int version = 0;    // schema_version, 0 when absent.
  FtsState fts;
  // "table.column" entries this library needs and the file lacks.
  std::vector<std::string> missing_columns;
};

// Inspects the database behind `db`. DataLoss when the file is not a SQLite database, is a
// database of something else, or carries a schema version newer than kSchemaVersion.
Result<SchemaProbe> probe_schema(Connection& db, const std::string& path);

// Creates the tables, indexes and FTS indexes a store needs, and adds the columns an older
// file lacks. Runs inside the caller's write transaction; idempotent, so a concurrent
// opener doing the same is harmless. An existing file keeps its schema_version (upstream's
// data migrations still run on its next open); a new one is stamped kSchemaVersion.
Status install_schema(Connection& db, const SchemaProbe& probe, const FtsInstallOptions& options);

}  // namespace hermes::store
