// Compression in the PostgreSQL store: rotation, in-place compaction and the lease, each
// one transaction holding the session's row lock; and the lane routing entries.
#include "common/json_text.hpp"
#include "store/compression_lease.hpp"
#include "store/postgres_rows.hpp"
#include "store/postgres_store.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

struct PgLeaseRow {
  std::string holder;
  double expires_at = 0;
};

// The lease row (locked), and the server's clock: hosts' clocks may disagree, the
// server's is the one every holder is measured by.
Result<std::pair<std::optional<PgLeaseRow>, double>> lock_lease(PgConnection& c,
                                                                const std::string& session_id) {
  auto clock = c.exec("SELECT extract(epoch FROM clock_timestamp())");
  if (!clock.ok()) return clock.status();
  PgParams p;
  p.add(session_id);
  auto rows = c.exec(
      "SELECT holder, expires_at FROM compression_locks WHERE session_id = $1 FOR UPDATE", p);
  if (!rows.ok()) return rows.status();
  std::optional<PgLeaseRow> lease;
  if (rows->rows() > 0) lease = PgLeaseRow{rows->text(0, 0), rows->real(0, 1)};
  return std::make_pair(lease, clock->real(0, 0));
}

Status verify_lease(PgConnection& c, const std::string& session_id, const std::string& holder) {
  if (holder.empty()) return {};
  auto lease = lock_lease(c, session_id);
  if (!lease.ok()) return lease.status();
  if (!lease->first || lease->first->holder != holder) {
    return Status::failed_precondition(lease_lost_message(session_id, holder));
  }
  return {};
}

Status lease_arguments(const std::string& holder, double ttl_seconds) {
  if (holder.empty()) return Status::invalid_argument("holder must not be empty");
  if (!(ttl_seconds > 0)) return Status::invalid_argument("ttl_seconds must be positive");
  return {};
}

Result<std::optional<std::string>> child_title(PgConnection& c, const SessionInfo& parent,
                                               const std::string& requested) {
  if (!requested.empty()) {
    auto clean = sanitize_title(requested);
    if (!clean.ok() || !clean->has_value()) return clean;
    auto holder = pg_title_holder(c, **clean, "");
    if (!holder.ok()) return holder.status();
    if (holder->has_value()) {
      return Status::already_exists("title '" + **clean + "' is already used by session '" +
                                    **holder + "'");
    }
    return clean;
  }
  if (parent.title.empty()) return std::optional<std::string>();
  auto next = pg_next_lineage_title(c, parent.title);
  if (!next.ok()) return next.status();
  return std::optional<std::string>(*next);
}

Status create_child(PgConnection& c, const SessionInfo& parent, const SessionInfo& child) {
  auto existing = pg_read_session(c, child.id);
  if (!existing.ok()) return existing.status();
  if (existing->has_value())
    return Status::already_exists("session '" + child.id + "' already exists");
  auto title = child_title(c, parent, child.title);
  if (!title.ok()) return title.status();
  const double started_at = child.started_at > 0 ? child.started_at : unix_now();
  HERMES_RETURN_IF_ERROR(pg_insert_session(c, continuation_row(parent, child), *title, started_at));
  if (!child.title.empty()) return {};
  PgParams p;
  p.add(parent.id).add(child.id);
  return c
      .exec(
          "UPDATE sessions SET title_source = (SELECT title_source FROM sessions WHERE id = $1) "
          "WHERE id = $2 AND title IS NOT NULL",
          p)
      .status();
}

}  // namespace

Status PostgresStore::rotate_for_compression(const std::string& old_session_id,
                                             const SessionInfo& child,
                                             const std::vector<Message>& messages,
                                             int64_t watermark, const std::string& lease_holder) {
  if (child.id.empty()) return Status::invalid_argument("child.id must not be empty");
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  return pool_->transaction([&](PgConnection& c) -> Status {
    auto parent = pg_read_session(c, old_session_id, /*for_update=*/true);
    if (!parent.ok()) return parent.status();
    if (!parent->has_value()) return session_not_found(old_session_id);
    HERMES_RETURN_IF_ERROR(verify_lease(c, old_session_id, lease_holder));
    if ((*parent)->ended_at != 0) {
      return Status::failed_precondition("session '" + old_session_id + "' already ended (" +
                                         (*parent)->end_reason + ")");
    }
    auto live = pg_live_rows(c, old_session_id);
    if (!live.ok()) return live.status();
    PgParams end;
    end.add(unix_now()).add(old_session_id);
    HERMES_RETURN_IF_ERROR(
        c.exec("UPDATE sessions SET ended_at = $1, end_reason = 'compression' WHERE id = $2", end)
            .status());
    HERMES_RETURN_IF_ERROR(create_child(c, **parent, child));
    std::vector<MessageRow> all = *rows;
    for (const LiveRow& late : *live) {
      if (late.id > watermark) all.push_back(late.row);
    }
    if (!all.empty()) HERMES_RETURN_IF_ERROR(pg_insert_messages(c, child.id, all).status());
    return pg_recompute_counters(c, child.id);
  });
}

Status PostgresStore::compact_in_place(const std::string& session_id,
                                       const std::vector<Message>& messages, int64_t watermark,
                                       const std::string& lease_holder) {
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  return pool_->transaction([&](PgConnection& c) -> Status {
    HERMES_RETURN_IF_ERROR(pg_lock_appendable(c, session_id));
    HERMES_RETURN_IF_ERROR(verify_lease(c, session_id, lease_holder));
    auto live = pg_live_rows(c, session_id);
    if (!live.ok()) return live.status();
    const CompactionPlan plan = plan_compaction(*live, *rows, watermark);
    PgParams p;
    p.add(session_id);
    HERMES_RETURN_IF_ERROR(c.exec("UPDATE messages SET active = 0, compacted = 1 "
                                  "WHERE session_id = $1 AND active = 1",
                                  p)
                               .status());
    if (!plan.hidden.empty()) {
      std::string ids;
      for (int64_t id : plan.hidden) ids += (ids.empty() ? "{" : ",") + std::to_string(id);
      PgParams hidden;
      hidden.add(ids + "}");
      HERMES_RETURN_IF_ERROR(
          c.exec("UPDATE messages SET active = 0, compacted = 0 WHERE id = ANY($1::bigint[])",
                 hidden)
              .status());
    }
    std::vector<MessageRow> all = *rows;
    for (const LiveRow* late : plan.carried) all.push_back(late->row);
    if (!all.empty()) HERMES_RETURN_IF_ERROR(pg_insert_messages(c, session_id, all).status());
    return pg_recompute_counters(c, session_id);
  });
}

Result<bool> PostgresStore::acquire_compression_lease(const std::string& session_id,
                                                      const std::string& holder,
                                                      double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(lease_arguments(holder, ttl_seconds));
  bool acquired = false;
  Status status = pool_->transaction([&](PgConnection& c) -> Status {
    auto lease = lock_lease(c, session_id);
    if (!lease.ok()) return lease.status();
    const auto& [row, now] = *lease;
    acquired = !row || row->holder == holder || lease_is_stale(row->holder, row->expires_at, now);
    if (!acquired) return {};
    PgParams p;
    p.add(session_id).add(holder).add(now).add(now + ttl_seconds);
    // The existing row is locked: take it over. Without one, another process may insert
    // first; then it holds the lease and this acquire fails.
    auto written =
        c.exec(row ? "UPDATE compression_locks SET holder = $2, acquired_at = $3, expires_at = $4 "
                     "WHERE session_id = $1 RETURNING holder"
                   : "INSERT INTO compression_locks (session_id, holder, acquired_at, expires_at) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (session_id) DO NOTHING RETURNING holder",
               p);
    if (!written.ok()) return written.status();
    acquired = written->rows() == 1;
    return {};
  });
  if (!status.ok()) return status;
  return acquired;
}

Status PostgresStore::renew_compression_lease(const std::string& session_id,
                                              const std::string& holder, double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(lease_arguments(holder, ttl_seconds));
  return pool_->transaction([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(ttl_seconds).add(session_id).add(holder);
    auto updated = c.exec(
        "UPDATE compression_locks SET expires_at = extract(epoch FROM clock_timestamp()) + $1 "
        "WHERE session_id = $2 AND holder = $3",
        p);
    if (!updated.ok()) return updated.status();
    if (updated->affected() == 0) {
      return Status::failed_precondition(lease_lost_message(session_id, holder));
    }
    return {};
  });
}

Status PostgresStore::release_compression_lease(const std::string& session_id,
                                                const std::string& holder) {
  return pool_->with_connection([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(session_id).add(holder);
    return c.exec("DELETE FROM compression_locks WHERE session_id = $1 AND holder = $2", p)
        .status();
  });
}

Result<std::optional<Json>> PostgresStore::load_route(const std::string& scope,
                                                      const std::string& session_key) {
  std::optional<Json> entry;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(scope).add(session_key);
    auto rows =
        c.exec("SELECT entry_json FROM gateway_routing WHERE scope = $1 AND session_key = $2", p);
    if (!rows.ok()) return rows.status();
    if (rows->rows() == 0) return {};
    auto parsed = internal::parse_json(rows->text(0, 0));
    if (!parsed) return Status::data_loss("routing entry '" + session_key + "' is not JSON");
    entry = std::move(*parsed);
    return {};
  });
  if (!status.ok()) return status;
  return entry;
}

Status PostgresStore::save_route(const std::string& scope, const std::string& session_key,
                                 const Json& entry) {
  if (session_key.empty()) return Status::invalid_argument("session_key must not be empty");
  return pool_->with_connection([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(scope).add(session_key).add(internal::dump_json(entry)).add(unix_now());
    return c
        .exec(
            "INSERT INTO gateway_routing (scope, session_key, entry_json, updated_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (scope, session_key) DO UPDATE SET "
            "entry_json = EXCLUDED.entry_json, updated_at = EXCLUDED.updated_at",
            p)
        .status();
  });
}

Status PostgresStore::delete_route(const std::string& scope, const std::string& session_key) {
  return pool_->with_connection([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(scope).add(session_key);
    return c.exec("DELETE FROM gateway_routing WHERE scope = $1 AND session_key = $2", p).status();
  });
}

Result<std::vector<std::pair<std::string, Json>>> PostgresStore::list_routes(
    const std::string& scope) {
  std::vector<std::pair<std::string, Json>> routes;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    PgParams p;
    p.add(scope);
    auto rows = c.exec(
        "SELECT session_key, entry_json FROM gateway_routing WHERE scope = $1 ORDER BY session_key",
        p);
    if (!rows.ok()) return rows.status();
    for (int i = 0; i < rows->rows(); ++i) {
      if (auto parsed = internal::parse_json(rows->text(i, 1))) {
        routes.emplace_back(rows->text(i, 0), std::move(*parsed));
      }
    }
    return {};
  });
  if (!status.ok()) return status;
  return routes;
}

}  // namespace hermes::store
