// The schema is declared as data (tables as column lists) so the same declaration both
// creates a new file and reconciles an old one: every column missing from an existing
// table is added with ALTER TABLE, as upstream's declarative reconciliation does.
#include "store/sqlite_schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <span>
#include <string_view>

#include "safety/log.hpp"

namespace hermes::store {
namespace {

struct Column {
  std::string_view name;
  std::string_view type;  // Type and column constraints, as in CREATE TABLE.
};

struct Table {
  std::string_view name;
  std::span<const Column> columns;
  std::string_view constraints;  // Table constraints, or empty.
};

constexpr Column kSchemaVersionColumns[] = {{"version", "INTEGER NOT NULL"}};

constexpr Column kSystemPromptColumns[] = {
    {"hash", "TEXT PRIMARY KEY"},  // sha256 hex of the prompt.
    {"prompt", "TEXT NOT NULL"},
};

constexpr Column kSessionColumns[] = {
    {"id", "TEXT PRIMARY KEY"},
    {"source", "TEXT NOT NULL"},
    {"created_source", "TEXT"},
    {"user_id", "TEXT"},
    {"session_key", "TEXT"},
    {"chat_id", "TEXT"},
    {"chat_type", "TEXT"},
    {"thread_id", "TEXT"},
    {"display_name", "TEXT"},
    {"origin_json", "TEXT"},
    {"expiry_finalized", "INTEGER DEFAULT 0"},
    {"model", "TEXT"},
    {"model_config", "TEXT"},
    {"system_prompt", "TEXT"},
    {"system_prompt_hash", "TEXT"},
    {"parent_session_id", "TEXT"},
    {"started_at", "REAL NOT NULL"},
    {"ended_at", "REAL"},
    {"end_reason", "TEXT"},
    {"message_count", "INTEGER DEFAULT 0"},
    {"tool_call_count", "INTEGER DEFAULT 0"},
    {"input_tokens", "INTEGER DEFAULT 0"},
    {"output_tokens", "INTEGER DEFAULT 0"},
    {"cache_read_tokens", "INTEGER DEFAULT 0"},
    {"cache_write_tokens", "INTEGER DEFAULT 0"},
    {"reasoning_tokens", "INTEGER DEFAULT 0"},
    {"cwd", "TEXT"},
    {"git_branch", "TEXT"},
    {"git_repo_root", "TEXT"},
    {"git_metadata_generation", "INTEGER NOT NULL DEFAULT 0"},
    {"billing_provider", "TEXT"},
    {"billing_base_url", "TEXT"},
    {"billing_mode", "TEXT"},
    {"estimated_cost_usd", "REAL"},
    {"actual_cost_usd", "REAL"},
    {"cost_status", "TEXT"},
    {"cost_source", "TEXT"},
    {"pricing_version", "TEXT"},
    {"title", "TEXT"},
    {"title_source", "TEXT"},
    {"last_activity_at", "REAL"},
    {"last_activity_description", "TEXT"},
    {"last_activity_provenance", "TEXT"},
    {"api_call_count", "INTEGER DEFAULT 0"},
    {"handoff_state", "TEXT"},
    {"handoff_platform", "TEXT"},
    {"handoff_error", "TEXT"},
    {"compression_failure_cooldown_until", "REAL"},
    {"compression_failure_error", "TEXT"},
    {"compression_fallback_streak", "INTEGER NOT NULL DEFAULT 0"},
    {"compression_ineffective_count", "INTEGER NOT NULL DEFAULT 0"},
    {"compression_recovery_deadline", "REAL"},
    {"compression_overload_streak", "INTEGER NOT NULL DEFAULT 0"},
    {"profile_name", "TEXT"},
    {"transport_profile", "TEXT"},
    {"rewind_count", "INTEGER NOT NULL DEFAULT 0"},
    {"archived", "INTEGER NOT NULL DEFAULT 0"},
    {"pinned", "INTEGER NOT NULL DEFAULT 0"},
    {"hidden", "INTEGER NOT NULL DEFAULT 0"},
    {"last_read_at", "REAL"},
    {"tool_names", "TEXT"},
};

constexpr Column kMessageColumns[] = {
    {"id", "INTEGER PRIMARY KEY AUTOINCREMENT"},  // The canonical order of a transcript.
    {"session_id", "TEXT NOT NULL REFERENCES sessions(id)"},
    {"role", "TEXT NOT NULL"},
    {"content", "TEXT"},
    {"tool_call_id", "TEXT"},
    {"tool_calls", "TEXT"},
    {"tool_name", "TEXT"},
    {"effect_disposition", "TEXT"},
    {"timestamp", "REAL NOT NULL"},
    {"token_count", "INTEGER"},
    {"finish_reason", "TEXT"},
    {"reasoning", "TEXT"},
    {"reasoning_content", "TEXT"},
    {"reasoning_details", "TEXT"},
    {"codex_reasoning_items", "TEXT"},
    {"codex_message_items", "TEXT"},
    {"platform_message_id", "TEXT"},
    {"observed", "INTEGER DEFAULT 0"},
    {"_compressed_summary", "INTEGER NOT NULL DEFAULT 0"},
    {"active", "INTEGER NOT NULL DEFAULT 1"},
    {"compacted", "INTEGER NOT NULL DEFAULT 0"},
    {"api_content", "TEXT"},
    {"display_kind", "TEXT"},
    {"display_metadata", "TEXT"},
    {"display_identity", "BLOB"},
    {"display_order", "INTEGER"},
};

constexpr Column kStateMetaColumns[] = {{"key", "TEXT PRIMARY KEY"}, {"value", "TEXT"}};

constexpr Column kCompressionLockColumns[] = {
    {"session_id", "TEXT PRIMARY KEY"},
    {"holder", "TEXT NOT NULL"},
    {"acquired_at", "REAL NOT NULL"},
    {"expires_at", "REAL NOT NULL"},
};

constexpr Table kTables[] = {
    {"schema_version", kSchemaVersionColumns, ""},
    {"system_prompts", kSystemPromptColumns, ""},
    {"sessions", kSessionColumns,
     "FOREIGN KEY (parent_session_id) REFERENCES sessions(id),\n"
     "  FOREIGN KEY (system_prompt_hash) REFERENCES system_prompts(hash)"},
    {"messages", kMessageColumns, ""},
    {"state_meta", kStateMetaColumns, ""},
    {"compression_locks", kCompressionLockColumns, ""},
};

// Indexes over columns every schema generation has.
constexpr std::string_view kBaseIndexes = R"sql(
CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source);
CREATE INDEX IF NOT EXISTS idx_sessions_source_id ON sessions(source, id);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages(session_id, id);
CREATE INDEX IF NOT EXISTS idx_messages_assistant_calls_by_session
    ON messages(session_id) WHERE role = 'assistant' AND tool_calls IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_compression_locks_expires ON compression_locks(expires_at);
)sql";

// Indexes over columns that older files gain only through reconciliation.
constexpr std::string_view kDeferredIndexes = R"sql(
CREATE INDEX IF NOT EXISTS idx_messages_session_active ON messages(session_id, active, timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_active_null ON messages(active) WHERE active IS NULL;
CREATE INDEX IF NOT EXISTS idx_sessions_session_key ON sessions(session_key, started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_gateway_peer
    ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_handoff_state ON sessions(handoff_state, started_at);
CREATE INDEX IF NOT EXISTS idx_sessions_system_prompt_hash ON sessions(system_prompt_hash);
CREATE INDEX IF NOT EXISTS idx_sessions_tool_names ON sessions(tool_names);
CREATE INDEX IF NOT EXISTS idx_sessions_effective_activity
    ON sessions(COALESCE(last_activity_at, started_at) DESC, started_at DESC);
)sql";

// Tables a store uses but does not require: a file without them opens read-only fine.
constexpr std::string_view kOptionalTables = R"sql(
CREATE TABLE IF NOT EXISTS gateway_routing (
    scope TEXT NOT NULL DEFAULT '',
    session_key TEXT NOT NULL,
    entry_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, session_key)
);
)sql";

// Old files may hold duplicate titles; the index is then skipped rather than failing open.
constexpr std::string_view kTitleIndex =
    "CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) "
    "WHERE title IS NOT NULL";

// A column ALTER TABLE cannot add; a table without it is not ours.
bool is_required(const Column& column) {
  const std::string_view t = column.type;
  const bool not_null = t.find("NOT NULL") != std::string_view::npos;
  const bool has_default = t.find("DEFAULT") != std::string_view::npos;
  return t.find("PRIMARY KEY") != std::string_view::npos || (not_null && !has_default);
}

std::string create_table_sql(const Table& table) {
  std::string sql = fmt::format("CREATE TABLE IF NOT EXISTS {} (\n", table.name);
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    const Column& c = table.columns[i];
    sql += fmt::format("  {} {}", c.name, c.type);
    if (i + 1 < table.columns.size() || !table.constraints.empty()) sql += ",";
    sql += "\n";
  }
  if (!table.constraints.empty()) sql += fmt::format("  {}\n", table.constraints);
  sql += ")";
  return sql;
}

Result<std::set<std::string>> table_columns(Connection& db, std::string_view table) {
  auto stmt = db.prepare_uncached(fmt::format("PRAGMA table_info(\"{}\")", table));
  if (!stmt.ok()) return stmt.status();
  std::set<std::string> names;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    names.insert(stmt->text(1));
  }
  return names;
}

// ---- Probing -------------------------------------------------------------------------

struct MasterEntry {
  std::string type;
  std::string name;
};

Result<std::vector<MasterEntry>> schema_objects(Connection& db, const std::string& path) {
  auto stmt = db.prepare_uncached("SELECT type, name FROM sqlite_master");
  Result<bool> row = stmt.ok() ? stmt->step() : Result<bool>(stmt.status());
  if (!row.ok()) {
    if (row.status().code() == StatusCode::kDataLoss) {
      return Status::data_loss(path + " is not a SQLite database (" + row.status().message() + ")");
    }
    return row.status();
  }
  std::vector<MasterEntry> entries;
  while (*row) {
    entries.push_back({stmt->text(0), stmt->text(1)});
    row = stmt->step();
    if (!row.ok()) return row.status();
  }
  return entries;
}

bool has_object(const std::vector<MasterEntry>& entries, std::string_view type,
                std::string_view name) {
  return std::any_of(entries.begin(), entries.end(),
                     [&](const MasterEntry& e) { return e.type == type && e.name == name; });
}

Result<int> stored_version(Connection& db) {
  auto text = db.query_text("SELECT MAX(version) FROM schema_version");
  if (!text.ok()) return text.status();
  if (!text->has_value()) return 0;
  try {
    return std::stoi(**text);
  } catch (...) {
    return 0;
  }
}

// Collects what the file lacks; DataLoss when a table of ours exists without a column
// reconciliation cannot add (it is some other program's table of the same name).
Status check_columns(Connection& db, const std::vector<MasterEntry>& entries,
                     const std::string& path, SchemaProbe& probe) {
  for (const Table& table : kTables) {
    if (!has_object(entries, "table", table.name)) {
      probe.missing_columns.push_back(std::string(table.name) + ".*");
      continue;
    }
    auto present = table_columns(db, table.name);
    if (!present.ok()) return present.status();
    for (const Column& column : table.columns) {
      if (present->count(std::string(column.name)) != 0) continue;
      const std::string qualified = fmt::format("{}.{}", table.name, column.name);
      if (is_required(column)) {
        return Status::data_loss(
            path + " does not look like a hermes state database: " + qualified + " is missing");
      }
      probe.missing_columns.push_back(qualified);
    }
  }
  return {};
}

Status reconcile_columns(Connection& db) {
  for (const Table& table : kTables) {
    auto present = table_columns(db, table.name);
    if (!present.ok()) return present.status();
    for (const Column& column : table.columns) {
      if (present->count(std::string(column.name)) != 0) continue;
      HERMES_RETURN_IF_ERROR(db.exec(
          fmt::format("ALTER TABLE {} ADD COLUMN {} {}", table.name, column.name, column.type)));
    }
  }
  return {};
}

}  // namespace

Result<SchemaProbe> probe_schema(Connection& db, const std::string& path) {
  auto entries = schema_objects(db, path);
  if (!entries.ok()) return entries.status();
  SchemaProbe probe;
  probe.empty = std::none_of(entries->begin(), entries->end(),
                             [](const MasterEntry& e) { return e.name.rfind("sqlite_", 0) != 0; });
  if (probe.empty) {
    for (const Table& table : kTables)
      probe.missing_columns.push_back(std::string(table.name) + ".*");
    return probe;
  }
  if (!has_object(*entries, "table", "sessions") || !has_object(*entries, "table", "messages")) {
    return Status::data_loss(path +
                             " is a SQLite database of another program (no sessions and messages "
                             "tables); refusing to modify it");
  }
  if (has_object(*entries, "table", "schema_version")) {
    auto version = stored_version(db);
    if (!version.ok()) return version.status();
    probe.version = *version;
    if (probe.version > kSchemaVersion) {
      return Status::data_loss(fmt::format(
          "{} has schema version {}, newer than the newest this library knows ({}); upgrade "
          "hermes to open it",
          path, probe.version, kSchemaVersion));
    }
  }
  HERMES_RETURN_IF_ERROR(check_columns(db, *entries, path, probe));
  auto fts = probe_fts(db);
  if (!fts.ok()) return fts.status();
  probe.fts = *fts;
  return probe;
}

Status install_schema(Connection& db, const SchemaProbe& probe, const FtsInstallOptions& options) {
  for (const Table& table : kTables) HERMES_RETURN_IF_ERROR(db.exec(create_table_sql(table)));
  HERMES_RETURN_IF_ERROR(reconcile_columns(db));
  HERMES_RETURN_IF_ERROR(db.exec(kOptionalTables));
  HERMES_RETURN_IF_ERROR(db.exec(kBaseIndexes));
  HERMES_RETURN_IF_ERROR(db.exec(kDeferredIndexes));
  if (Status s = db.exec(kTitleIndex); !s.ok()) {
    HERMES_LOG_WARN("session titles are not unique in this database; not indexing them: {}",
                    s.message());
  }
  // Rows written by an old reconciler that added `active` without its default would
  // otherwise vanish from every transcript.
  HERMES_RETURN_IF_ERROR(db.exec("UPDATE messages SET active = 1 WHERE active IS NULL"));
  HERMES_RETURN_IF_ERROR(install_fts(db, probe.fts, options));
  if (probe.empty) {
    HERMES_RETURN_IF_ERROR(
        db.exec(fmt::format("INSERT INTO schema_version(version) SELECT {0} "
                            "WHERE NOT EXISTS (SELECT 1 FROM schema_version)",
                            kSchemaVersion)));
  }
  return {};
}

}  // namespace hermes::store
