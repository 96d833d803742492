// The on-disk schema of the state database, shared with the upstream Hermes runtime so
// either program can open a file the other wrote.
#pragma once

#include <string>
#include <vector>

#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// The newest upstream schema version; files this library creates carry it.
inline constexpr int kSchemaVersion = 30;
// The FTS layout marker (state_meta.fts_storage_version) of the external-content layout.
inline constexpr int kFtsStorageVersion = 3;
// Tool results are often megabytes; only this prefix of a tool row is indexed.
inline constexpr int kFtsToolContentPrefixChars = 8192;

enum class FtsLayout {
  kNone,             // No messages_fts table.
  kLegacyInline,     // Schema 11-22: the index keeps its own copy of the text.
  kExternalContent,  // Schema 23+: the index reads through the messages_fts_src view.
};

// What an existing file holds, found without writing anything.
struct SchemaProbe {
  bool empty = true;  // No tables at all: a new database.
  int version = 0;    // schema_version, 0 when absent.
  FtsLayout fts = FtsLayout::kNone;
  bool has_trigram = false;
  // "table.column" entries this library needs and the file lacks.
  std::vector<std::string> missing_columns;
};

// Inspects the database behind `db`. DataLoss when the file is not a SQLite database, is a
// database of something else, or carries a schema version newer than kSchemaVersion.
Result<SchemaProbe> probe_schema(Connection& db, const std::string& path);

// Whether this SQLite build has FTS5, and its trigram tokenizer (probed on temp tables, so
// the file is not touched).
bool fts5_available(Connection& db);
bool fts5_trigram_available(Connection& db);

struct SchemaInstallOptions {
  bool fts5 = true;     // FTS5 is available: create the word index.
  bool trigram = false; // Create the trigram index too.
};

// Creates the tables, indexes and FTS indexes a store needs, and adds the columns an older
// file lacks. Runs inside the caller's write transaction; idempotent, so a concurrent
// opener doing the same is harmless. An existing file keeps its schema_version (upstream's
// data migrations still run on its next open); a new one is stamped kSchemaVersion.
Status install_schema(Connection& db, const SchemaProbe& probe, const SchemaInstallOptions& options);

}  // namespace hermes::store
