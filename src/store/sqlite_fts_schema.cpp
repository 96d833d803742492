#include "store/sqlite_fts_schema.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>

#include "safety/log.hpp"

namespace hermes::store {
namespace {

constexpr std::array<std::string_view, 3> kWordTriggers = {
    "messages_fts_insert", "messages_fts_delete", "messages_fts_update"};
constexpr std::array<std::string_view, 3> kTrigramTriggers = {
    "messages_fts_trigram_insert", "messages_fts_trigram_delete", "messages_fts_trigram_update"};

// Every trigger honours upstream's deferred-rebuild window: rows in (progress, high_water]
// are not in the index yet and must not receive an FTS 'delete' (that corrupts an
// external-content index). Outside a rebuild both keys are absent and the gate is true.
std::string rebuild_gate(std::string_view row) {
  return fmt::format(
      "({0}.id > COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta "
      "WHERE key = 'fts_rebuild_high_water'), -1) "
      "OR {0}.id <= COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta "
      "WHERE key = 'fts_rebuild_progress'), -1))",
      row);
}

// What the word index stores for a row. It depends only on the row, so an FTS 'delete'
// always removes exactly what the insert added.
std::string indexed_content(std::string_view row) {
  return fmt::format(
      "CASE WHEN {0}.role = 'tool' THEN substr(COALESCE({0}.content, ''), 1, {1}) "
      "ELSE {0}.content END",
      row, kFtsToolContentPrefixChars);
}

// Sessions whose rows belong in the trigram index: not cron or sub-agent transcripts.
std::string trigram_session_predicate(std::string_view alias) {
  const std::string q = alias.empty() ? "" : std::string(alias) + ".";
  return q + "source NOT IN ('cron', 'subagent') AND json_extract(CASE WHEN json_valid(" + q +
         "model_config) THEN " + q + "model_config ELSE '{}' END, '$._delegate_from') IS NULL";
}

std::string word_index_sql() {
  return fmt::format(
      R"sql(
CREATE VIEW IF NOT EXISTS messages_fts_src AS
  SELECT id, {content} AS content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
  content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages
WHEN {gate_new}
BEGIN
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  VALUES (new.id, {new_content}, new.tool_name, new.tool_calls);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages
WHEN {gate_old}
BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, {old_content}, old.tool_name, old.tool_calls);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_update
AFTER UPDATE OF content, tool_name, tool_calls, role ON messages
WHEN (old.content IS NOT new.content OR old.tool_name IS NOT new.tool_name
      OR old.tool_calls IS NOT new.tool_calls OR old.role IS NOT new.role)
  AND {gate_old}
BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, {old_content}, old.tool_name, old.tool_calls);
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  VALUES (new.id, {new_content}, new.tool_name, new.tool_calls);
END;
)sql",
      fmt::arg("content", indexed_content("messages")), fmt::arg("gate_new", rebuild_gate("new")),
      fmt::arg("gate_old", rebuild_gate("old")), fmt::arg("new_content", indexed_content("new")),
      fmt::arg("old_content", indexed_content("old")));
}

std::string trigram_index_sql() {
  return fmt::format(
      R"sql(
CREATE VIEW IF NOT EXISTS messages_fts_trigram_src AS
  SELECT m.id, m.role, m.content, m.tool_name
  FROM messages AS m JOIN sessions AS s ON s.id = m.session_id
  WHERE m.role <> 'tool' AND {view_sessions};
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts_trigram USING fts5(
  content, tool_name, content='messages_fts_trigram_src', content_rowid='id',
  tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_insert AFTER INSERT ON messages
WHEN new.role <> 'tool'
  AND EXISTS (SELECT 1 FROM sessions WHERE id = new.session_id AND {sessions})
  AND {gate_new}
BEGIN
  INSERT INTO messages_fts_trigram(rowid, content, tool_name)
  VALUES (new.id, new.content, new.tool_name);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_delete AFTER DELETE ON messages
WHEN old.role <> 'tool'
  AND EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id AND {sessions})
  AND {gate_old}
BEGIN
  INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name)
  VALUES ('delete', old.id, old.content, old.tool_name);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_update
AFTER UPDATE OF content, tool_name, role ON messages
WHEN (old.content IS NOT new.content OR old.tool_name IS NOT new.tool_name
      OR old.role IS NOT new.role)
  AND {gate_old}
BEGIN
  INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name)
  SELECT 'delete', old.id, old.content, old.tool_name
  WHERE old.role <> 'tool'
    AND EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id AND {sessions});
  INSERT INTO messages_fts_trigram(rowid, content, tool_name)
  SELECT new.id, new.content, new.tool_name
  WHERE new.role <> 'tool'
    AND EXISTS (SELECT 1 FROM sessions WHERE id = new.session_id AND {sessions});
END;
)sql",
      fmt::arg("view_sessions", trigram_session_predicate("s")),
      fmt::arg("sessions", trigram_session_predicate("")),
      fmt::arg("gate_new", rebuild_gate("new")), fmt::arg("gate_old", rebuild_gate("old")));
}

Result<bool> exists(Connection& db, const std::string& sql) {
  auto value = db.query_text("SELECT EXISTS (" + sql + ")");
  if (!value.ok()) return value.status();
  return value->value_or("0") != "0";
}

Result<bool> has_object(Connection& db, std::string_view type, std::string_view name) {
  return exists(
      db, fmt::format("SELECT 1 FROM sqlite_master WHERE type = '{}' AND name = '{}'", type, name));
}

Result<bool> has_all_triggers(Connection& db, const std::array<std::string_view, 3>& names) {
  for (std::string_view name : names) {
    auto found = has_object(db, "trigger", name);
    if (!found.ok() || !*found) return found;
  }
  return true;
}

Status drop_triggers(Connection& db, const std::array<std::string_view, 3>& names) {
  for (std::string_view name : names) {
    HERMES_RETURN_IF_ERROR(db.exec(fmt::format("DROP TRIGGER IF EXISTS {}", name)));
  }
  return {};
}

Status rebuild(Connection& db, std::string_view table) {
  return db.exec(fmt::format("INSERT INTO {0}({0}) VALUES('rebuild')", table));
}

// Creates (or completes) both indexes and rebuilds them from the messages. A full rebuild
// satisfies any deferred backfill, whose markers are then cleared.
Status install_all(Connection& db, bool trigram, bool new_layout) {
  HERMES_RETURN_IF_ERROR(db.exec(word_index_sql()));
  if (trigram) HERMES_RETURN_IF_ERROR(db.exec(trigram_index_sql()));
  HERMES_RETURN_IF_ERROR(rebuild(db, "messages_fts"));
  if (trigram) HERMES_RETURN_IF_ERROR(rebuild(db, "messages_fts_trigram"));
  HERMES_RETURN_IF_ERROR(
      db.exec("DELETE FROM state_meta WHERE key IN "
              "('fts_rebuild_high_water', 'fts_rebuild_progress')"));
  if (!new_layout) return {};
  return db.exec(fmt::format(
      "INSERT OR REPLACE INTO state_meta(key, value) VALUES ('fts_storage_version', '{}')",
      kFtsStorageVersion));
}

bool probe_virtual_table(Connection& db, std::string_view args) {
  const std::string create =
      fmt::format("CREATE VIRTUAL TABLE temp.hermes_fts_probe USING fts5({})", args);
  if (!db.exec(create).ok()) return false;
  db.exec("DROP TABLE temp.hermes_fts_probe");
  return true;
}

}  // namespace

Result<FtsState> probe_fts(Connection& db) {
  FtsState state;
  auto external = has_object(db, "view", "messages_fts_src");
  auto word = has_object(db, "table", "messages_fts");
  auto trigram = has_object(db, "table", "messages_fts_trigram");
  auto word_triggers = has_all_triggers(db, kWordTriggers);
  auto trigram_triggers = has_all_triggers(db, kTrigramTriggers);
  for (const auto* r : {&external, &word, &trigram, &word_triggers, &trigram_triggers}) {
    if (!r->ok()) return r->status();
  }
  if (*word) state.layout = *external ? FtsLayout::kExternalContent : FtsLayout::kLegacyInline;
  state.has_trigram = *trigram;
  state.word_triggers = *word_triggers;
  state.trigram_triggers = *trigram_triggers;
  auto meta = has_object(db, "table", "state_meta");
  if (!meta.ok()) return meta.status();
  if (*meta) {
    auto pending = exists(db, "SELECT 1 FROM state_meta WHERE key = 'fts_rebuild_high_water'");
    if (!pending.ok()) return pending.status();
    state.rebuild_pending = *pending;
  }
  return state;
}

bool fts5_available(Connection& db) {
  return probe_virtual_table(db, "x");
}

bool fts5_trigram_available(Connection& db) {
  return probe_virtual_table(db, "x, tokenize='trigram'");
}

Status install_fts(Connection& db, const FtsState& state, const FtsInstallOptions& options) {
  if (!options.fts5) {
    // The triggers would fail every write; a later open with FTS5 restores and rebuilds.
    HERMES_RETURN_IF_ERROR(drop_triggers(db, kWordTriggers));
    return drop_triggers(db, kTrigramTriggers);
  }
  if (state.has_trigram && !options.trigram_tokenizer) {
    HERMES_RETURN_IF_ERROR(drop_triggers(db, kTrigramTriggers));
  }
  if (state.layout == FtsLayout::kLegacyInline) {
    if (options.want_trigram && !state.has_trigram) {
      HERMES_LOG_WARN("the trigram index is not added to a database with the legacy FTS layout");
    }
    return {};
  }
  const bool trigram = options.trigram_tokenizer && (state.has_trigram || options.want_trigram);
  if (state.layout == FtsLayout::kNone || !state.word_triggers) {
    return install_all(db, trigram, state.layout == FtsLayout::kNone);
  }
  if (!trigram || (state.has_trigram && state.trigram_triggers)) return {};
  if (state.rebuild_pending) {
    // Upstream's backfill would index the pending rows a second time.
    HERMES_LOG_WARN("the trigram index is added once the pending FTS rebuild has finished");
    return {};
  }
  HERMES_RETURN_IF_ERROR(db.exec(trigram_index_sql()));
  return rebuild(db, "messages_fts_trigram");
}

}  // namespace hermes::store
