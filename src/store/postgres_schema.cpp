#include "store/postgres_schema.hpp"

#include <fmt/format.h>

#include "safety/log.hpp"

namespace hermes::store {

std::string search_text_sql(std::string_view p) {
  return fmt::format(
      "(COALESCE(CASE WHEN {0}role = 'tool' THEN left({0}content, 8192) ELSE {0}content END, "
      "'') || ' ' || COALESCE({0}tool_name, '') || ' ' || COALESCE({0}tool_calls, ''))",
      p);
}

namespace {

// Any fixed number: every hermes process installing a schema takes the same lock.
constexpr int64_t kInstallLockKey = 0x6865726d6573;  // "hermes"

constexpr std::string_view kTablesSql = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS system_prompts (hash TEXT PRIMARY KEY, prompt TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  user_id TEXT,
  session_key TEXT,
  model TEXT,
  model_config JSONB,
  system_prompt_hash TEXT REFERENCES system_prompts(hash),
  parent_session_id TEXT REFERENCES sessions(id),
  started_at DOUBLE PRECISION NOT NULL,
  ended_at DOUBLE PRECISION,
  end_reason TEXT,
  message_count BIGINT NOT NULL DEFAULT 0,
  tool_call_count BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT NOT NULL DEFAULT 0,
  reasoning_tokens BIGINT NOT NULL DEFAULT 0,
  api_call_count BIGINT NOT NULL DEFAULT 0,
  billing_provider TEXT,
  billing_base_url TEXT,
  estimated_cost_usd DOUBLE PRECISION,
  cost_status TEXT,
  cost_source TEXT,
  title TEXT,
  title_source TEXT
);
CREATE TABLE IF NOT EXISTS messages (
  id BIGSERIAL PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL,
  content TEXT,
  content_is_json BOOLEAN NOT NULL DEFAULT FALSE,
  tool_call_id TEXT,
  tool_calls TEXT,
  tool_name TEXT,
  timestamp DOUBLE PRECISION NOT NULL,
  finish_reason TEXT,
  reasoning TEXT,
  reasoning_content TEXT,
  reasoning_details TEXT,
  codex_reasoning_items TEXT,
  codex_message_items TEXT,
  api_content TEXT,
  display_kind TEXT,
  active SMALLINT NOT NULL DEFAULT 1,
  compacted SMALLINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS compression_locks (
  session_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at DOUBLE PRECISION NOT NULL,
  expires_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS gateway_routing (
  scope TEXT NOT NULL DEFAULT '',
  session_key TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  updated_at DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (scope, session_key)
);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_session_key ON sessions(session_key, started_at DESC);
CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title)
  WHERE title IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages(session_id, id);
CREATE INDEX IF NOT EXISTS idx_messages_session_active ON messages(session_id, active, id);
CREATE INDEX IF NOT EXISTS idx_compression_locks_expires ON compression_locks(expires_at);
)sql";

Result<int> stored_version(PgConnection& c) {
  auto rows = c.exec("SELECT COALESCE(MAX(version), 0) FROM schema_version");
  if (!rows.ok()) return rows.status();
  return static_cast<int>(rows->int64(0, 0));
}

// The pg_trgm extension is trusted since PostgreSQL 13, so a database owner can create
// it; without it substring search still works, only slower.
Result<bool> install_trigram(PgConnection& c) {
  if (Status s = c.exec_script("SAVEPOINT trgm; CREATE EXTENSION IF NOT EXISTS pg_trgm "
                               "WITH SCHEMA public; RELEASE SAVEPOINT trgm");
      !s.ok()) {
    c.exec_script("ROLLBACK TO SAVEPOINT trgm");
    HERMES_LOG_WARN("pg_trgm is not available ({}); substring search scans", s.message());
    return false;
  }
  HERMES_RETURN_IF_ERROR(c.exec_script(
      fmt::format("CREATE INDEX IF NOT EXISTS idx_messages_trgm ON messages USING GIN "
                  "(({}) public.gin_trgm_ops)",
                  search_text_sql(""))));
  return true;
}

}  // namespace

Result<bool> install_postgres_schema(PgPool& pool, const std::string& schema) {
  bool trigram = false;
  Status status = pool.transaction([&](PgConnection& c) -> Status {
    PgParams lock;
    lock.add(kInstallLockKey);
    auto locked = c.exec("SELECT pg_advisory_xact_lock($1)", lock);
    if (!locked.ok()) return locked.status();
    if (!schema.empty()) {
      HERMES_RETURN_IF_ERROR(
          c.exec_script("CREATE SCHEMA IF NOT EXISTS " + quote_identifier(schema)));
    }
    HERMES_RETURN_IF_ERROR(c.exec_script(std::string(kTablesSql)));
    HERMES_RETURN_IF_ERROR(
        c.exec_script("CREATE INDEX IF NOT EXISTS idx_messages_fts ON messages USING GIN "
                      "(to_tsvector('simple'::regconfig, " +
                      search_text_sql("") + "))"));
    auto found = install_trigram(c);
    if (!found.ok()) return found.status();
    trigram = *found;
    auto version = stored_version(c);
    if (!version.ok()) return version.status();
    if (*version > kPostgresSchemaVersion) {
      return Status::data_loss(fmt::format(
          "the PostgreSQL store has schema version {}, newer than this library knows ({}); "
          "upgrade hermes",
          *version, kPostgresSchemaVersion));
    }
    if (*version == 0) {
      PgParams v;
      v.add(int64_t{kPostgresSchemaVersion});
      auto inserted = c.exec("INSERT INTO schema_version(version) VALUES ($1)", v);
      if (!inserted.ok()) return inserted.status();
    }
    return {};
  });
  if (!status.ok()) return status;
  return trigram;
}

}  // namespace hermes::store
