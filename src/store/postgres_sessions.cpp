// Opening the PostgreSQL store and the session-row operations.
#include <algorithm>

#include "store/postgres_rows.hpp"
#include "store/postgres_schema.hpp"
#include "store/postgres_store.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

// Rows a conversation picker shows; the same rules as is_listed_as_root().
constexpr std::string_view kPgListedAsRootSql = R"sql((
  s.parent_session_id IS NULL
  OR s.model_config->>'_branched_from' IS NOT NULL
  OR s.model_config->>'_reset_from' IS NOT NULL
  OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_session_id
             AND p.end_reason = 'branched' AND p.ended_at IS NOT NULL
             AND s.started_at >= p.ended_at)
  OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = s.parent_session_id
             AND p.end_reason IN ('session_reset', 'session_switch', 'idle', 'daily',
                                  'suspended', 'resume_pending_expired')
             AND COALESCE(s.session_key, '') <> '' AND s.session_key = p.session_key)))sql";

Status require_session(PgConnection& c, const std::string& id) {
  auto session = pg_read_session(c, id);
  if (!session.ok()) return session.status();
  return session->has_value() ? Status() : session_not_found(id);
}

template <typename Walk>
Result<std::string> walk_lineage(PgConnection& c, const std::string& session_id, Walk walk) {
  auto start = pg_read_session(c, session_id);
  if (!start.ok()) return start.status();
  if (!start->has_value()) return session_not_found(session_id);
  ChildrenOf children = [&](const std::string& id) { return pg_child_sessions(c, id); };
  auto get = [&](const std::string& id) { return pg_read_session(c, id); };
  HasMessages any = [&](const std::string& id) -> Result<bool> {
    PgParams p;
    p.add(id);
    auto rows = c.exec("SELECT 1 FROM messages WHERE session_id = $1 AND active = 1 LIMIT 1", p);
    if (!rows.ok()) return rows.status();
    return rows->rows() > 0;
  };
  return walk(**start, children, get, any);
}

}  // namespace

Result<std::shared_ptr<SessionStore>> PostgresStore::open(const std::string& conninfo,
                                                          const PostgresStoreOptions& options) {
  const std::string search_path =
      options.schema.empty() ? "" : quote_identifier(options.schema) + ", public";
  auto pool = std::make_unique<PgPool>(conninfo, search_path, std::max(1, options.max_connections),
                                       std::max(1, options.connect_timeout_seconds));
  auto installed = install_postgres_schema(*pool, options.schema);
  if (!installed.ok()) {
    return Status(installed.status().code(),
                  "cannot open the PostgreSQL session store: " + installed.status().message());
  }
  return std::shared_ptr<SessionStore>(new PostgresStore(std::move(pool)));
}

Status PostgresStore::create_session(const SessionInfo& info) {
  if (info.id.empty()) return Status::invalid_argument("session_id must not be empty");
  std::optional<std::string> title;
  if (!info.title.empty()) {
    auto clean = sanitize_title(info.title);
    if (!clean.ok()) return clean.status();
    title = *clean;
  }
  const double started_at = info.started_at > 0 ? info.started_at : unix_now();
  return pool_->transaction([&](PgConnection& c) -> Status {
    auto existing = pg_read_session(c, info.id);
    if (!existing.ok()) return existing.status();
    if (existing->has_value()) return {};
    if (!info.parent_session_id.empty()) {
      auto parent = pg_read_session(c, info.parent_session_id);
      if (!parent.ok()) return parent.status();
      if (!parent->has_value()) {
        return Status::not_found("parent session '" + info.parent_session_id + "' does not exist");
      }
    }
    if (title) {
      auto holder = pg_title_holder(c, *title, info.id);
      if (!holder.ok()) return holder.status();
      if (holder->has_value()) return title_taken(*title, **holder);
    }
    return pg_insert_session(c, info, title, started_at);
  });
}

Status PostgresStore::end_session(const std::string& session_id, const std::string& end_reason) {
  return pool_->transaction([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(unix_now()).add_or_null(end_reason).add(session_id);
    auto updated = c.exec(
        "UPDATE sessions SET ended_at = $1, end_reason = $2 WHERE id = $3 AND ended_at IS NULL", p);
    if (!updated.ok()) return updated.status();
    if (updated->affected() > 0) return {};
    return require_session(c, session_id);  // Already ended: the first end wins.
  });
}

Result<SessionInfo> PostgresStore::get_session(const std::string& session_id) {
  std::optional<SessionInfo> found;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto row = pg_read_session(c, session_id);
    if (!row.ok()) return row.status();
    found = std::move(*row);
    return {};
  });
  if (!status.ok()) return status;
  if (!found) return session_not_found(session_id);
  return std::move(*found);
}

Result<std::vector<SessionInfo>> PostgresStore::list_sessions(const ListOptions& options) {
  std::string sql(kPgSelectSessionSql);
  PgParams p;
  sql += "WHERE TRUE";
  if (!options.source.empty()) {
    sql += " AND s.source = " + p.next();
    p.add(options.source);
  }
  if (options.roots_only) sql += " AND " + std::string(kPgListedAsRootSql);
  sql += " ORDER BY s.started_at DESC, s.id DESC";
  if (options.limit > 0) {
    sql += " LIMIT " + p.next();
    p.add(int64_t{options.limit});
  }
  sql += " OFFSET " + p.next();
  p.add(int64_t{std::max(options.offset, 0)});
  std::vector<SessionInfo> sessions;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto rows = c.exec(sql, p);
    if (!rows.ok()) return rows.status();
    for (int i = 0; i < rows->rows(); ++i) sessions.push_back(pg_session_row(*rows, i));
    return {};
  });
  if (!status.ok()) return status;
  return sessions;
}

Status PostgresStore::delete_session(const std::string& session_id) {
  return pool_->transaction([&](PgConnection& c) -> Status {
    auto session = pg_read_session(c, session_id, /*for_update=*/true);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    for (const char* sql :
         {"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = $1",
          "DELETE FROM messages WHERE session_id = $1",
          "DELETE FROM compression_locks WHERE session_id = $1",
          "DELETE FROM sessions WHERE id = $1"}) {
      PgParams p;
      p.add(session_id);
      HERMES_RETURN_IF_ERROR(c.exec(sql, p).status());
    }
    return {};
  });
}

Status PostgresStore::record_usage(const std::string& session_id, const UsageDelta& d) {
  return pool_->transaction([&](PgConnection& c) { return pg_add_usage(c, session_id, d); });
}

Status PostgresStore::set_system_prompt(const std::string& session_id, const std::string& prompt) {
  return pool_->transaction([&](PgConnection& c) -> Status {
    HERMES_RETURN_IF_ERROR(require_session(c, session_id));
    return pg_store_system_prompt(c, session_id, prompt);
  });
}

Status PostgresStore::set_title(const std::string& session_id, const std::string& title) {
  auto clean = sanitize_title(title);
  if (!clean.ok()) return clean.status();
  const std::optional<std::string>& value = *clean;
  return pool_->transaction([&](PgConnection& c) -> Status {
    auto session = pg_read_session(c, session_id, /*for_update=*/true);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    if (value) {
      auto holder = pg_title_holder(c, *value, session_id);
      if (!holder.ok()) return holder.status();
      if (holder->has_value()) {
        // A compression ancestor's title moves to its continuation; others keep theirs.
        auto ancestors = pg_ancestors(c, **session);
        if (!ancestors.ok()) return ancestors.status();
        const bool ancestor = std::any_of(ancestors->begin(), ancestors->end(), [&](const auto& a) {
          return a.id == **holder && a.end_reason == "compression";
        });
        if (!ancestor) return title_taken(*value, **holder);
        PgParams clear;
        clear.add(**holder);
        HERMES_RETURN_IF_ERROR(
            c.exec("UPDATE sessions SET title = NULL, title_source = NULL WHERE id = $1", clear)
                .status());
      }
    }
    PgParams p;
    p.add(value).add(value ? std::optional<std::string>("user") : std::nullopt).add(session_id);
    return c.exec("UPDATE sessions SET title = $1, title_source = $2 WHERE id = $3", p).status();
  });
}

Status PostgresStore::reopen_session(const std::string& session_id) {
  return pool_->transaction([&](PgConnection& c) -> Status {
    auto session = pg_read_session(c, session_id, /*for_update=*/true);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    if ((*session)->end_reason == "compression") {
      return Status::failed_precondition("session '" + session_id +
                                         "' was closed by compression and cannot be reopened");
    }
    PgParams p;
    p.add(session_id);
    return c.exec("UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = $1", p)
        .status();
  });
}

Result<std::string> PostgresStore::compression_tip(const std::string& session_id) {
  std::string tip;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto found = walk_lineage(c, session_id, [](auto& start, auto& children, auto& get, auto&) {
      return walk_to_compression_tip(start, children, get);
    });
    if (!found.ok()) return found.status();
    tip = std::move(*found);
    return {};
  });
  if (!status.ok()) return status;
  return tip;
}

Result<std::string> PostgresStore::resolve_resume_session_id(const std::string& session_id) {
  std::string target;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto found = walk_lineage(c, session_id, [](auto& start, auto& children, auto& get, auto& any) {
      return walk_to_resume_session(start, children, get, any);
    });
    if (!found.ok()) return found.status();
    target = std::move(*found);
    return {};
  });
  if (!status.ok()) return status;
  return target;
}

Result<std::vector<SessionInfo>> PostgresStore::lineage(const std::string& session_id) {
  std::vector<SessionInfo> chain;
  Status status = pool_->transaction([&](PgConnection& c) -> Status {
    chain.clear();
    auto session = pg_read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    auto ancestors = pg_ancestors(c, **session);
    if (!ancestors.ok()) return ancestors.status();
    chain = std::move(*ancestors);
    chain.push_back(std::move(**session));
    return {};
  });
  if (!status.ok()) return status;
  return chain;
}

}  // namespace hermes::store

namespace hermes {

Result<std::shared_ptr<SessionStore>> open_postgres_store(const std::string& conninfo,
                                                          const PostgresStoreOptions& options) {
  return store::PostgresStore::open(conninfo, options);
}

}  // namespace hermes
