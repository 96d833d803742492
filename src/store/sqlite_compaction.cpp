// Compression in the SQLite store: rotation into a child session and in-place compaction,
// each one transaction.
#include "store/compaction_plan.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/sqlite_lease.hpp"
#include "store/sqlite_message_rows.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/sqlite_store.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

Status end_for_compression(Connection& db, const std::string& session_id) {
  auto stmt =
      db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'compression' WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  return stmt->bind(1, unix_now()).bind(2, session_id).run();
}

// The child's title: the one asked for (which must be free), else the parent's, numbered.
Result<std::optional<std::string>> child_title(Connection& db, const SessionInfo& parent,
                                               const std::string& requested) {
  if (!requested.empty()) {
    auto clean = sanitize_title(requested);
    if (!clean.ok()) return clean.status();
    if (!clean->has_value()) return *clean;
    auto stmt = db.prepare("SELECT id FROM sessions WHERE title = ?");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, **clean);
    auto taken = stmt->step();
    if (!taken.ok()) return taken.status();
    if (*taken) {
      return Status::already_exists("title '" + **clean + "' is already used by session '" +
                                    stmt->text(0) + "'");
    }
    return *clean;
  }
  if (parent.title.empty()) return std::optional<std::string>();
  auto next = next_lineage_title(db, parent.title);
  if (!next.ok()) return next.status();
  return std::optional<std::string>(std::move(*next));
}

Status copy_title_source(Connection& db, const std::string& parent_id,
                         const std::string& child_id) {
  auto stmt = db.prepare(
      "UPDATE sessions SET title_source = (SELECT title_source FROM sessions WHERE id = ?1) "
      "WHERE id = ?2 AND title IS NOT NULL");
  if (!stmt.ok()) return stmt.status();
  return stmt->bind(1, parent_id).bind(2, child_id).run();
}

Status insert_rows(Connection& db, const std::string& session_id,
                   const std::vector<MessageRow>& rows) {
  return insert_message_rows(db, session_id, rows).status();
}

Status create_child(Connection& db, const SessionInfo& parent, const SessionInfo& child) {
  auto exists = session_exists(db, child.id);
  if (!exists.ok()) return exists.status();
  if (*exists) return Status::already_exists("session '" + child.id + "' already exists");
  auto title = child_title(db, parent, child.title);
  if (!title.ok()) return title.status();
  const SessionInfo row = continuation_row(parent, child);
  const double started_at = child.started_at > 0 ? child.started_at : unix_now();
  HERMES_RETURN_IF_ERROR(insert_session(db, row, *title, started_at));
  if (child.title.empty()) HERMES_RETURN_IF_ERROR(copy_title_source(db, parent.id, child.id));
  if (row.system_prompt.empty()) return {};
  return store_system_prompt(db, row.id, row.system_prompt);
}

}  // namespace

Result<int64_t> SqliteStore::active_message_watermark(const std::string& session_id) {
  int64_t watermark = 0;
  Status status = db_->read([&](Connection& c) -> Status {
    auto exists = session_exists(c, session_id);
    if (!exists.ok()) return exists.status();
    if (!*exists) return session_not_found(session_id);
    auto stmt =
        c.prepare("SELECT COALESCE(MAX(id), 0) FROM messages WHERE session_id = ? AND active = 1");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, session_id);
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    watermark = *row ? stmt->int64(0) : 0;
    return {};
  });
  if (!status.ok()) return status;
  return watermark;
}

Status SqliteStore::rotate_for_compression(const std::string& old_session_id,
                                           const SessionInfo& child,
                                           const std::vector<Message>& messages, int64_t watermark,
                                           const std::string& lease_holder) {
  if (child.id.empty()) return Status::invalid_argument("child.id must not be empty");
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  return db_->write(
      [&](Connection& c) -> Status {
        if (!lease_holder.empty())
          HERMES_RETURN_IF_ERROR(verify_lease(c, old_session_id, lease_holder));
        auto parent = read_session(c, old_session_id);
        if (!parent.ok()) return parent.status();
        if (!parent->has_value()) return session_not_found(old_session_id);
        if ((*parent)->ended_at != 0) {
          return Status::failed_precondition("session '" + old_session_id + "' already ended (" +
                                             (*parent)->end_reason + ")");
        }
        auto live = live_rows(c, old_session_id);
        if (!live.ok()) return live.status();
        HERMES_RETURN_IF_ERROR(end_for_compression(c, old_session_id));
        HERMES_RETURN_IF_ERROR(create_child(c, **parent, child));
        std::vector<MessageRow> child_rows = *rows;
        for (const LiveRow& late : *live) {
          if (late.id > watermark) child_rows.push_back(late.row);
        }
        HERMES_RETURN_IF_ERROR(insert_rows(c, child.id, child_rows));
        return recompute_counters(c, child.id);
      },
      kTranscriptWritePatience);
}

Status SqliteStore::compact_in_place(const std::string& session_id,
                                     const std::vector<Message>& messages, int64_t watermark,
                                     const std::string& lease_holder) {
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  return db_->write(
      [&](Connection& c) -> Status {
        if (!lease_holder.empty())
          HERMES_RETURN_IF_ERROR(verify_lease(c, session_id, lease_holder));
        HERMES_RETURN_IF_ERROR(check_appendable(c, session_id));
        auto live = live_rows(c, session_id);
        if (!live.ok()) return live.status();
        const CompactionPlan plan = plan_compaction(*live, *rows, watermark);
        auto archive = c.prepare(
            "UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ? AND active = 1");
        if (!archive.ok()) return archive.status();
        HERMES_RETURN_IF_ERROR(archive->bind(1, session_id).run());
        for (int64_t id : plan.hidden) HERMES_RETURN_IF_ERROR(set_row_flags(c, id, false, false));
        std::vector<MessageRow> kept = *rows;
        for (const LiveRow* late : plan.carried) kept.push_back(late->row);
        HERMES_RETURN_IF_ERROR(insert_rows(c, session_id, kept));
        return recompute_counters(c, session_id);
      },
      kTranscriptWritePatience);
}

}  // namespace hermes::store
