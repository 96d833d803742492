// Opening the SQLite store and the session-row operations. Messages live in
// sqlite_messages.cpp, search in sqlite_search.cpp.
#include "store/sqlite_store.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "common/json_text.hpp"
#include "safety/log.hpp"
#include "store/fts_maintenance.hpp"
#include "store/session_title.hpp"
#include "store/sqlite_file.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

// Rows a conversation picker shows: roots, /branch copies and reset boundaries; not
// compression continuations or sub-agent runs. The same rules as is_listed_as_root().
constexpr std::string_view kListedAsRootSql = R"sql((
  s.parent_session_id IS NULL
  OR json_extract(CASE WHEN json_valid(s.model_config) THEN s.model_config ELSE '{}' END,
                  '$._branched_from') IS NOT NULL
  OR json_extract(CASE WHEN json_valid(s.model_config) THEN s.model_config ELSE '{}' END,
                  '$._reset_from') IS NOT NULL
  OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_session_id
             AND p.end_reason = 'branched' AND p.ended_at IS NOT NULL
             AND s.started_at >= p.ended_at)
  OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_session_id
             AND p.end_reason IN ('session_reset', 'session_switch', 'idle', 'daily',
                                  'suspended', 'resume_pending_expired')
             AND s.session_key IS NOT NULL AND s.session_key <> ''
             AND s.session_key = p.session_key)))sql";

Status require_session(Connection& db, const std::string& id) {
  auto exists = session_exists(db, id);
  if (!exists.ok()) return exists.status();
  return *exists ? Status() : session_not_found(id);
}

Status check_session_id(const std::string& id) {
  if (id.empty()) return Status::invalid_argument("session_id must not be empty");
  return {};
}

// The holder of `title` other than `session_id`, if any.
Result<std::optional<std::string>> title_holder(Connection& db, const std::string& title,
                                                const std::string& session_id) {
  auto stmt = db.prepare("SELECT id FROM sessions WHERE title = ? AND id <> ? LIMIT 1");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, title).bind(2, session_id);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(stmt->text(0));
}

// A title held by a compression ancestor moves to its continuation; any other holder
// keeps it.
Status claim_title(Connection& db, const SessionInfo& session, const std::string& title) {
  auto holder = title_holder(db, title, session.id);
  if (!holder.ok()) return holder.status();
  if (!holder->has_value()) return {};
  auto ancestors = compression_ancestors(db, session);
  if (!ancestors.ok()) return ancestors.status();
  const bool ancestor = std::any_of(ancestors->begin(), ancestors->end(),
                                    [&](const SessionInfo& a) { return a.id == **holder; });
  if (!ancestor) return title_taken(title, **holder);
  auto clear = db.prepare("UPDATE sessions SET title = NULL, title_source = NULL WHERE id = ?");
  if (!clear.ok()) return clear.status();
  return clear->bind(1, **holder).run();
}

Status open_failed(const std::string& path, const Status& status) {
  return Status(status.code(), "cannot open session store " + path + ": " + status.message());
}

Status prepare_file(const std::string& path, bool read_only) {
  if (is_memory_path(path)) return {};
  if (!read_only) return prepare_database_file(path);
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return Status::not_found("no such file");
  return {};
}

// What this SQLite build can do for full-text search.
struct Capabilities {
  bool fts5 = false;
  bool trigram_tokenizer = false;
};

// Looks at the file and at the SQLite build without writing anything.
Status inspect(SqliteDatabase& db, SchemaProbe& probe, Capabilities& caps) {
  return db.with_connection([&](Connection& c) -> Status {
    auto found = probe_schema(c, db.path());
    if (!found.ok()) return found.status();
    probe = std::move(*found);
    caps.fts5 = fts5_available(c);
    caps.trigram_tokenizer = caps.fts5 && fts5_trigram_available(c);
    return {};
  });
}

// Creates or upgrades the schema in one write transaction. The file is probed again inside
// it: another process may have initialised it since the first look.
Status install(SqliteDatabase& db, const FtsInstallOptions& options, int read_connections,
               Durability durability) {
  HERMES_RETURN_IF_ERROR(db.enable_write_ahead_log(read_connections, durability));
  return db.write([&](Connection& c) -> Status {
    auto probe = probe_schema(c, db.path());
    if (!probe.ok()) return probe.status();
    return install_schema(c, *probe, options);
  });
}

Status check_read_only_schema(const std::string& path, const SchemaProbe& probe) {
  if (probe.missing_columns.empty()) return {};
  std::string missing;
  for (const auto& column : probe.missing_columns)
    missing += (missing.empty() ? "" : ", ") + column;
  return Status::failed_precondition(path + " lacks " + missing +
                                     "; open it once read-write to bring its schema up to date");
}

// Bounded FTS merges every so many writes (fts_maintenance.hpp) on the indexes in use.
void keep_indexes_merged(SqliteDatabase& db, bool words, bool trigram) {
  std::vector<std::string> tables;
  if (words) tables.emplace_back("messages_fts");
  if (trigram) tables.emplace_back("messages_fts_trigram");
  if (tables.empty()) return;
  auto maintenance = std::make_shared<FtsMaintenance>(std::move(tables));
  db.set_periodic_task(kFtsMergeEveryWrites,
                       [maintenance](Connection& c) { (void)maintenance->run(c); });
}

}  // namespace

Result<std::shared_ptr<SessionStore>> SqliteStore::open(const std::string& path,
                                                        const SqliteStoreOptions& options) {
  if (Status s = prepare_file(path, options.read_only); !s.ok()) return open_failed(path, s);
  auto db = SqliteDatabase::open(path, options.read_only);
  if (!db.ok()) return open_failed(path, db.status());

  SchemaProbe probe;
  Capabilities caps;
  Status status = inspect(**db, probe, caps);
  if (status.ok() && options.read_only) status = check_read_only_schema(path, probe);
  if (status.ok() && !options.read_only) {
    status = install(**db, {caps.fts5, caps.trigram_tokenizer, options.trigram_index},
                     options.read_connections, options.durability);
    if (status.ok()) status = inspect(**db, probe, caps);  // See what the install left.
  }
  if (!status.ok()) return open_failed(path, status);
  if (options.trigram_index && !caps.trigram_tokenizer) {
    HERMES_LOG_WARN("this SQLite lacks the FTS5 trigram tokenizer; CJK search uses LIKE scans");
  }
  SearchIndexes indexes;
  indexes.words = caps.fts5 && probe.fts.layout != FtsLayout::kNone && probe.fts.word_triggers;
  indexes.trigram = caps.trigram_tokenizer && probe.fts.has_trigram && probe.fts.trigram_triggers;
  if (!options.read_only) keep_indexes_merged(**db, indexes.words, indexes.trigram);
  return std::shared_ptr<SessionStore>(new SqliteStore(std::move(*db), indexes));
}

Status SqliteStore::create_session(const SessionInfo& info) {
  HERMES_RETURN_IF_ERROR(check_session_id(info.id));
  std::optional<std::string> title;
  if (!info.title.empty()) {
    auto clean = sanitize_title(info.title);
    if (!clean.ok()) return clean.status();
    title = std::move(*clean);
  }
  const double started_at = info.started_at > 0 ? info.started_at : unix_now();
  return db_->write([&](Connection& c) -> Status {
    auto exists = session_exists(c, info.id);
    if (!exists.ok()) return exists.status();
    if (*exists) return {};
    if (!info.parent_session_id.empty()) {
      auto parent = session_exists(c, info.parent_session_id);
      if (!parent.ok()) return parent.status();
      if (!*parent)
        return Status::not_found("parent session '" + info.parent_session_id + "' does not exist");
    }
    if (title) {
      auto holder = title_holder(c, *title, info.id);
      if (!holder.ok()) return holder.status();
      if (holder->has_value()) return title_taken(*title, **holder);
    }
    HERMES_RETURN_IF_ERROR(insert_session(c, info, title, started_at));
    if (info.system_prompt.empty()) return {};
    return store_system_prompt(c, info.id, info.system_prompt);
  });
}

Status SqliteStore::end_session(const std::string& session_id, const std::string& end_reason) {
  const double now = unix_now();
  return db_->write([&](Connection& c) -> Status {
    auto stmt = c.prepare(
        "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL");
    if (!stmt.ok()) return stmt.status();
    HERMES_RETURN_IF_ERROR(
        stmt->bind(1, now).bind_or_null(2, end_reason).bind(3, session_id).run());
    if (c.changes() > 0) return {};
    return require_session(c, session_id);  // Already ended: the first end wins.
  });
}

Result<SessionInfo> SqliteStore::get_session(const std::string& session_id) {
  std::optional<SessionInfo> found;
  Status status = db_->read([&](Connection& c) -> Status {
    auto row = read_session(c, session_id);
    if (!row.ok()) return row.status();
    found = std::move(*row);
    return {};
  });
  if (!status.ok()) return status;
  if (!found) return session_not_found(session_id);
  return std::move(*found);
}

Result<std::vector<SessionInfo>> SqliteStore::list_sessions(const ListOptions& options) {
  std::string sql(kSelectSessionSql);
  sql += "WHERE 1";
  if (!options.source.empty()) sql += " AND s.source = ?1";
  if (options.roots_only) sql += std::string(" AND ") + std::string(kListedAsRootSql);
  sql += " ORDER BY s.started_at DESC, s.id DESC LIMIT ?2 OFFSET ?3";
  std::vector<SessionInfo> sessions;
  Status status = db_->read([&](Connection& c) -> Status {
    sessions.clear();
    auto stmt = c.prepare(sql);
    if (!stmt.ok()) return stmt.status();
    if (!options.source.empty()) stmt->bind(1, options.source);
    stmt->bind(2, options.limit > 0 ? int64_t{options.limit} : int64_t{-1})
        .bind(3, int64_t{std::max(options.offset, 0)});
    for (;;) {
      auto row = stmt->step();
      if (!row.ok()) return row.status();
      if (!*row) return {};
      sessions.push_back(read_session_row(*stmt));
    }
  });
  if (!status.ok()) return status;
  return sessions;
}

Status SqliteStore::delete_session(const std::string& session_id) {
  return db_->write([&](Connection& c) -> Status {
    HERMES_RETURN_IF_ERROR(require_session(c, session_id));
    // Children outlive their parent, orphaned (the foreign key would refuse otherwise).
    for (const char* sql :
         {"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?",
          "DELETE FROM messages WHERE session_id = ?",
          "DELETE FROM compression_locks WHERE session_id = ?",
          "DELETE FROM sessions WHERE id = ?"}) {
      auto stmt = c.prepare(sql);
      if (!stmt.ok()) return stmt.status();
      HERMES_RETURN_IF_ERROR(stmt->bind(1, session_id).run());
    }
    return {};
  });
}

Status SqliteStore::record_usage(const std::string& session_id, const UsageDelta& d) {
  return db_->write([&](Connection& c) -> Status { return add_usage(c, session_id, d); });
}

Status SqliteStore::set_system_prompt(const std::string& session_id, const std::string& prompt) {
  return db_->write([&](Connection& c) -> Status {
    HERMES_RETURN_IF_ERROR(require_session(c, session_id));
    return store_system_prompt(c, session_id, prompt);
  });
}

Status SqliteStore::set_title(const std::string& session_id, const std::string& title) {
  auto clean = sanitize_title(title);
  if (!clean.ok()) return clean.status();
  const std::optional<std::string>& value = *clean;
  return db_->write([&](Connection& c) -> Status {
    auto session = read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    if (value) HERMES_RETURN_IF_ERROR(claim_title(c, **session, *value));
    auto stmt = c.prepare("UPDATE sessions SET title = ?, title_source = ? WHERE id = ?");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, value);
    if (value) {
      stmt->bind(2, "user");
    } else {
      stmt->bind(2, nullptr);
    }
    return stmt->bind(3, session_id).run();
  });
}

}  // namespace hermes::store

namespace hermes {

Result<std::shared_ptr<SessionStore>> open_sqlite_store(const std::string& path,
                                                        const SqliteStoreOptions& options) {
  return store::SqliteStore::open(path, options);
}

}  // namespace hermes
