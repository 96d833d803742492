// The compression lease in the SQLite store: a compression_locks row per session.
#include "store/sqlite_lease.hpp"

#include "store/compression_lease.hpp"
#include "store/sqlite_store.hpp"

namespace hermes::store {
namespace {

struct LeaseRow {
  std::string holder;
  double expires_at = 0;
};

Result<std::optional<LeaseRow>> read_lease(Connection& db, const std::string& session_id) {
  auto stmt = db.prepare("SELECT holder, expires_at FROM compression_locks WHERE session_id = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<LeaseRow>();
  return std::optional<LeaseRow>(LeaseRow{stmt->text(0), stmt->real(1)});
}

Status check_holder(const std::string& holder) {
  if (holder.empty()) return Status::invalid_argument("holder must not be empty");
  return {};
}

Status check_ttl(double ttl_seconds) {
  if (!(ttl_seconds > 0)) return Status::invalid_argument("ttl_seconds must be positive");
  return {};
}

}  // namespace

Status verify_lease(Connection& db, const std::string& session_id, const std::string& holder) {
  auto lease = read_lease(db, session_id);
  if (!lease.ok()) return lease.status();
  // An expired lease nobody took over is still ours: the publish is atomic with the check.
  if (!lease->has_value() || (*lease)->holder != holder) {
    return Status::failed_precondition(lease_lost_message(session_id, holder));
  }
  return {};
}

Result<bool> SqliteStore::acquire_compression_lease(const std::string& session_id,
                                                    const std::string& holder, double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(check_holder(holder));
  HERMES_RETURN_IF_ERROR(check_ttl(ttl_seconds));
  bool acquired = false;
  Status status = db_->write([&](Connection& c) -> Status {
    const double now = unix_now();
    auto lease = read_lease(c, session_id);
    if (!lease.ok()) return lease.status();
    if (lease->has_value()) {
      const LeaseRow& row = **lease;
      if (row.holder != holder && !lease_is_stale(row.holder, row.expires_at, now)) {
        acquired = false;
        return {};
      }
      auto drop = c.prepare("DELETE FROM compression_locks WHERE session_id = ?");
      if (!drop.ok()) return drop.status();
      HERMES_RETURN_IF_ERROR(drop->bind(1, session_id).run());
    }
    auto insert = c.prepare(
        "INSERT INTO compression_locks (session_id, holder, acquired_at, expires_at) "
        "VALUES (?, ?, ?, ?)");
    if (!insert.ok()) return insert.status();
    HERMES_RETURN_IF_ERROR(
        insert->bind(1, session_id).bind(2, holder).bind(3, now).bind(4, now + ttl_seconds).run());
    acquired = true;
    return {};
  });
  if (!status.ok()) return status;
  return acquired;
}

Status SqliteStore::renew_compression_lease(const std::string& session_id,
                                            const std::string& holder, double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(check_holder(holder));
  HERMES_RETURN_IF_ERROR(check_ttl(ttl_seconds));
  return db_->write([&](Connection& c) -> Status {
    auto stmt = c.prepare(
        "UPDATE compression_locks SET expires_at = ? WHERE session_id = ? AND holder = ?");
    if (!stmt.ok()) return stmt.status();
    HERMES_RETURN_IF_ERROR(
        stmt->bind(1, unix_now() + ttl_seconds).bind(2, session_id).bind(3, holder).run());
    if (c.changes() == 0) {
      return Status::failed_precondition(lease_lost_message(session_id, holder));
    }
    return {};
  });
}

Status SqliteStore::release_compression_lease(const std::string& session_id,
                                              const std::string& holder) {
  return db_->write([&](Connection& c) -> Status {
    auto stmt = c.prepare("DELETE FROM compression_locks WHERE session_id = ? AND holder = ?");
    if (!stmt.ok()) return stmt.status();
    return stmt->bind(1, session_id).bind(2, holder).run();
  });
}

}  // namespace hermes::store
