// Reading session rows and walking their lineage on a SQLite connection. Used inside the
// caller's transaction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/session_store.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// The SELECT list and FROM clause read_session_row() expects; append WHERE/ORDER BY.
extern const std::string_view kSelectSessionSql;

// The SessionInfo of the current row of a statement built on kSelectSessionSql.
SessionInfo read_session_row(const Statement& stmt);

// The session `id`, or nullopt when there is no such row.
Result<std::optional<SessionInfo>> read_session(Connection& db, const std::string& id);

// True when a session row `id` exists.
Result<bool> session_exists(Connection& db, const std::string& id);

// The sessions `session` continues after compressions, root first (without `session`).
Result<std::vector<SessionInfo>> compression_ancestors(Connection& db, const SessionInfo& session);

// Inserts the session row (INSERT OR IGNORE) with `title` and start time `started_at`.
Status insert_session(Connection& db, const SessionInfo& info,
                      const std::optional<std::string>& title, double started_at);

// Stores `prompt` content-addressed and points the session at it.
Status store_system_prompt(Connection& db, const std::string& session_id,
                           const std::string& prompt);

// Adds `delta` to the session's usage totals; NotFound when there is no such session.
Status add_usage(Connection& db, const std::string& session_id, const UsageDelta& delta);

// The sessions whose parent is `parent_id`.
Result<std::vector<SessionInfo>> child_sessions(Connection& db, const std::string& parent_id);

// The title a compression child of a session titled `parent_title` gets, numbered
// against the titles already in use (see session_title.hpp).
Result<std::string> next_lineage_title(Connection& db, const std::string& parent_title);

// Every ancestor of `session` through parent_session_id, root first (without `session`).
Result<std::vector<SessionInfo>> all_ancestors(Connection& db, const SessionInfo& session);

// The root of `id`'s lineage, following parent_session_id as far as rows exist.
Result<std::string> lineage_root(Connection& db, const std::string& id);

}  // namespace hermes::store
