// The full-text indexes of the state database: the word index over every message (tool
// results cut to a prefix) and the optional trigram index for CJK and substring search,
// both external-content FTS5 tables kept in sync by triggers on messages.
#pragma once

#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// The FTS layout marker (state_meta.fts_storage_version) of the external-content layout.
inline constexpr int kFtsStorageVersion = 3;
// Tool results are often megabytes; only this prefix of a tool row is indexed.
inline constexpr int kFtsToolContentPrefixChars = 8192;

enum class FtsLayout {
  kNone,             // No messages_fts table.
  kLegacyInline,     // Schema 11-22: the index keeps its own copy of the text.
  kExternalContent,  // Schema 23+: the index reads through the messages_fts_src view.
};

// The full-text indexes a file holds.
struct FtsState {
  FtsLayout layout = FtsLayout::kNone;
  bool has_trigram = false;
  bool word_triggers = false;     // All three sync triggers of messages_fts exist.
  bool trigram_triggers = false;  // All three sync triggers of messages_fts_trigram exist.
  bool rebuild_pending = false;   // Upstream's deferred background backfill is under way.
};

// Reads the FTS state of the database behind `db` (nothing is written).
Result<FtsState> probe_fts(Connection& db);

// Whether this SQLite build has FTS5, and its trigram tokenizer (probed on temp tables, so
// the file is not touched).
bool fts5_available(Connection& db);
bool fts5_trigram_available(Connection& db);

struct FtsInstallOptions {
  bool fts5 = true;                // This SQLite has FTS5.
  bool trigram_tokenizer = false;  // ... and its trigram tokenizer.
  bool want_trigram = false;       // Create the trigram index if the file has none.
};

// Brings the indexes to what `options` ask for inside the caller's write transaction:
// creates missing indexes, restores missing sync triggers (rebuilding the index they
// missed rows of) and, without FTS5, drops the triggers so that writes keep working. A
// legacy inline layout is kept as it is: upstream's storage optimiser owns that migration.
Status install_fts(Connection& db, const FtsState& state, const FtsInstallOptions& options);

}  // namespace hermes::store
