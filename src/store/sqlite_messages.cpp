// Appending, loading and reading transcripts in the SQLite store.
#include <string>

#include "store/compaction_plan.hpp"
#include "store/conversation_filters.hpp"
#include "store/session_lineage.hpp"
#include "store/sqlite_message_rows.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/sqlite_store.hpp"

namespace hermes::store {
namespace {

Result<int64_t> count_active(Connection& db, const std::string& session_id, int64_t cap) {
  auto stmt = db.prepare(
      "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE session_id = ? AND active = 1 LIMIT ?)");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id).bind(2, cap);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  return *row ? stmt->int64(0) : 0;
}

Status too_many_messages(const std::string& session_id, std::size_t limit) {
  return Status::resource_exhausted(
      "session '" + session_id + "' has more than " + std::to_string(limit) +
      " messages to load; raise LoadOptions::max_messages (0 disables the limit) to load it");
}

// Refuses before reading when the chain holds more live rows than the guard allows.
Status check_load_size(Connection& c, const std::vector<SessionInfo>& chain,
                       const std::string& session_id, std::size_t max_messages) {
  if (max_messages == 0) return {};
  const auto cap = static_cast<int64_t>(max_messages);
  int64_t total = 0;
  for (const SessionInfo& s : chain) {
    auto n = count_active(c, s.id, cap + 1 - total);
    if (!n.ok()) return n.status();
    total += *n;
    if (total > cap) return too_many_messages(session_id, max_messages);
  }
  return {};
}

}  // namespace

Result<std::vector<int64_t>> SqliteStore::append_messages(const std::string& session_id,
                                                          const std::vector<Message>& messages) {
  if (messages.empty()) return std::vector<int64_t>();
  return append_step(session_id, messages, {});
}

// The messages, their counters and the usage in one transaction: one commit, so one
// fsync under Durability::kFull, whatever a step holds.
Result<std::vector<int64_t>> SqliteStore::append_step(const std::string& session_id,
                                                      const std::vector<Message>& messages,
                                                      const std::vector<UsageDelta>& usage) {
  int64_t tool_calls = 0;
  auto rows = encode_batch(messages, &tool_calls);
  if (!rows.ok()) return rows.status();
  if (rows->empty() && usage.empty()) return std::vector<int64_t>();
  assign_timestamps(*rows, unix_now());

  std::vector<int64_t> ids;
  Status status = db_->write(
      [&](Connection& c) -> Status {
        ids.clear();
        if (!rows->empty()) {
          HERMES_RETURN_IF_ERROR(check_appendable(c, session_id));
          auto inserted = insert_message_rows(c, session_id, *rows);
          if (!inserted.ok()) return inserted.status();
          ids = std::move(*inserted);
          HERMES_RETURN_IF_ERROR(
              bump_counters(c, session_id, static_cast<int64_t>(rows->size()), tool_calls));
        }
        for (const UsageDelta& delta : usage) {
          HERMES_RETURN_IF_ERROR(add_usage(c, session_id, delta));
        }
        return {};
      },
      kTranscriptWritePatience);
  if (!status.ok()) return status;
  return ids;
}

Result<std::vector<Message>> SqliteStore::load_segment(Connection& c,
                                                       const std::string& session_id) {
  auto stmt = c.prepare(std::string("SELECT ") + std::string(kMessageColumnsSql) +
                        " FROM messages m WHERE m.session_id = ? AND m.active = 1 ORDER BY m.id");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  std::vector<Message> messages;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (auto m = decode_message(read_message_row(*stmt).row)) messages.push_back(std::move(*m));
  }
  apply_resume_filters(messages);
  return messages;
}

Result<std::vector<Message>> SqliteStore::load_messages(const std::string& session_id,
                                                        const LoadOptions& options) {
  std::vector<Message> conversation;
  Status status = db_->read([&](Connection& c) -> Status {
    conversation.clear();
    auto session = read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return Status::not_found("no session '" + session_id + "'");
    std::vector<SessionInfo> chain;
    if (options.include_ancestors) {
      auto ancestors = compression_ancestors(c, **session);
      if (!ancestors.ok()) return ancestors.status();
      chain = std::move(*ancestors);
    }
    chain.push_back(std::move(**session));
    HERMES_RETURN_IF_ERROR(check_load_size(c, chain, session_id, options.max_messages));
    for (const SessionInfo& s : chain) {
      auto segment = load_segment(c, s.id);
      if (!segment.ok()) return segment.status();
      if (options.include_ancestors) {
        append_lineage_segment(conversation, std::move(*segment));
      } else {
        conversation = std::move(*segment);
      }
    }
    return {};
  });
  if (!status.ok()) return status;
  return conversation;
}

Result<std::vector<StoredMessage>> SqliteStore::read_messages(const std::string& session_id,
                                                              const ReadOptions& options) {
  std::string sql = std::string("SELECT ") + std::string(kMessageColumnsSql) +
                    " FROM messages m WHERE m.session_id = ?1 AND m.id > ?2 AND (m.active = 1";
  sql += options.include_archived ? " OR m.compacted = 1)" : ")";
  sql += " ORDER BY m.id LIMIT ?3";
  std::vector<StoredMessage> stored;
  Status status = db_->read([&](Connection& c) -> Status {
    stored.clear();
    auto exists = session_exists(c, session_id);
    if (!exists.ok()) return exists.status();
    if (!*exists) return Status::not_found("no session '" + session_id + "'");
    auto stmt = c.prepare(sql);
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, session_id)
        .bind(2, options.after_id)
        .bind(3, options.limit > 0 ? static_cast<int64_t>(options.limit) : int64_t{-1});
    for (;;) {
      auto row = stmt->step();
      if (!row.ok()) return row.status();
      if (!*row) return {};
      SelectedRow selected = read_message_row(*stmt);
      if (auto m = decode_message(selected.row)) {
        stored.push_back({selected.id, std::move(*m), !selected.active});
      }
    }
  });
  if (!status.ok()) return status;
  return stored;
}

}  // namespace hermes::store
