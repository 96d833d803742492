// Lineage questions in the SQLite store: ancestors, compression tips, the session to
// resume, and reopening a closed session.
#include "store/session_lineage.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/sqlite_store.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

Result<bool> has_live_messages(Connection& db, const std::string& session_id) {
  auto stmt = db.prepare("SELECT 1 FROM messages WHERE session_id = ? AND active = 1 LIMIT 1");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  return stmt->step();
}

// Runs `walk` over the session `session_id` with lineage accessors bound to `db`.
template <typename Walk>
Result<std::string> walk_lineage(Connection& db, const std::string& session_id, Walk walk) {
  auto start = read_session(db, session_id);
  if (!start.ok()) return start.status();
  if (!start->has_value()) return session_not_found(session_id);
  ChildrenOf children = [&](const std::string& id) { return child_sessions(db, id); };
  auto get = [&](const std::string& id) { return read_session(db, id); };
  HasMessages any = [&](const std::string& id) { return has_live_messages(db, id); };
  return walk(**start, children, get, any);
}

}  // namespace

Status SqliteStore::reopen_session(const std::string& session_id) {
  return db_->write([&](Connection& c) -> Status {
    auto session = read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    if ((*session)->end_reason == "compression") {
      return Status::failed_precondition("session '" + session_id +
                                         "' was closed by compression and cannot be reopened");
    }
    auto stmt = c.prepare("UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = ?");
    if (!stmt.ok()) return stmt.status();
    return stmt->bind(1, session_id).run();
  });
}

Result<std::string> SqliteStore::compression_tip(const std::string& session_id) {
  std::string tip;
  Status status = db_->read([&](Connection& c) -> Status {
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

Result<std::string> SqliteStore::resolve_resume_session_id(const std::string& session_id) {
  std::string target;
  Status status = db_->read([&](Connection& c) -> Status {
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

Result<std::vector<SessionInfo>> SqliteStore::lineage(const std::string& session_id) {
  std::vector<SessionInfo> chain;
  Status status = db_->read([&](Connection& c) -> Status {
    chain.clear();
    auto session = read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    auto ancestors = all_ancestors(c, **session);
    if (!ancestors.ok()) return ancestors.status();
    chain = std::move(*ancestors);
    chain.push_back(std::move(**session));
    return {};
  });
  if (!status.ok()) return status;
  return chain;
}

}  // namespace hermes::store
