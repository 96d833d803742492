// Chat-lane routing entries in the SQLite store: the gateway_routing table upstream keeps
// as the canonical copy of its sessions.json.
#include "common/json_text.hpp"
#include "store/sqlite_store.hpp"

namespace hermes::store {

Result<std::optional<Json>> SqliteStore::load_route(const std::string& scope,
                                                    const std::string& session_key) {
  std::optional<Json> entry;
  Status status = db_->read([&](Connection& c) -> Status {
    entry.reset();
    auto stmt =
        c.prepare("SELECT entry_json FROM gateway_routing WHERE scope = ? AND session_key = ?");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, scope).bind(2, session_key);
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) return {};
    auto parsed = internal::parse_json(stmt->text(0));
    if (!parsed) return Status::data_loss("routing entry '" + session_key + "' is not JSON");
    entry = std::move(*parsed);
    return {};
  });
  if (!status.ok()) return status;
  return entry;
}

Status SqliteStore::save_route(const std::string& scope, const std::string& session_key,
                               const Json& entry) {
  if (session_key.empty()) return Status::invalid_argument("session_key must not be empty");
  const std::string text = internal::dump_json(entry);
  return db_->write([&](Connection& c) -> Status {
    auto stmt = c.prepare(
        "INSERT INTO gateway_routing (scope, session_key, entry_json, updated_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (scope, session_key) DO UPDATE SET "
        "entry_json = excluded.entry_json, updated_at = excluded.updated_at");
    if (!stmt.ok()) return stmt.status();
    return stmt->bind(1, scope).bind(2, session_key).bind(3, text).bind(4, unix_now()).run();
  });
}

Status SqliteStore::delete_route(const std::string& scope, const std::string& session_key) {
  return db_->write([&](Connection& c) -> Status {
    auto stmt = c.prepare("DELETE FROM gateway_routing WHERE scope = ? AND session_key = ?");
    if (!stmt.ok()) return stmt.status();
    return stmt->bind(1, scope).bind(2, session_key).run();
  });
}

Result<std::vector<std::pair<std::string, Json>>> SqliteStore::list_routes(
    const std::string& scope) {
  std::vector<std::pair<std::string, Json>> routes;
  Status status = db_->read([&](Connection& c) -> Status {
    routes.clear();
    auto stmt = c.prepare(
        "SELECT session_key, entry_json FROM gateway_routing WHERE scope = ? ORDER BY session_key");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, scope);
    for (;;) {
      auto row = stmt->step();
      if (!row.ok()) return row.status();
      if (!*row) return {};
      auto parsed = internal::parse_json(stmt->text(1));
      if (parsed) routes.emplace_back(stmt->text(0), std::move(*parsed));
    }
  });
  if (!status.ok()) return status;
  return routes;
}

}  // namespace hermes::store
