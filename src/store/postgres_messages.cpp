// Appending, loading and reading transcripts in the PostgreSQL store.
#include "store/compaction_plan.hpp"
#include "store/conversation_filters.hpp"
#include "store/postgres_rows.hpp"
#include "store/postgres_store.hpp"
#include "store/session_lineage.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

Result<std::vector<PgMessageRow>> select_rows(PgConnection& c, const std::string& session_id,
                                              bool include_archived, int64_t after_id,
                                              std::size_t limit) {
  PgParams p;
  p.add(session_id).add(after_id);
  std::string sql = "SELECT " + std::string(kPgMessageColumnsSql) +
                    " FROM messages m WHERE m.session_id = $1 AND m.id > $2 AND (m.active = 1" +
                    (include_archived ? " OR m.compacted = 1)" : ")") + " ORDER BY m.id";
  if (limit > 0) {
    sql += " LIMIT $3";
    p.add(static_cast<int64_t>(limit));
  }
  auto rows = c.exec(sql, p);
  if (!rows.ok()) return rows.status();
  std::vector<PgMessageRow> out;
  out.reserve(static_cast<std::size_t>(rows->rows()));
  for (int i = 0; i < rows->rows(); ++i) out.push_back(pg_message_row(*rows, i));
  return out;
}

Result<int64_t> count_live(PgConnection& c, const std::string& session_id) {
  PgParams p;
  p.add(session_id);
  auto rows = c.exec("SELECT COUNT(*) FROM messages WHERE session_id = $1 AND active = 1", p);
  if (!rows.ok()) return rows.status();
  return rows->int64(0, 0);
}

Status check_load_size(PgConnection& c, const std::vector<SessionInfo>& chain,
                       const std::string& session_id, std::size_t max_messages) {
  if (max_messages == 0) return {};
  int64_t total = 0;
  for (const SessionInfo& s : chain) {
    auto n = count_live(c, s.id);
    if (!n.ok()) return n.status();
    total += *n;
  }
  if (total <= static_cast<int64_t>(max_messages)) return {};
  return Status::resource_exhausted(
      "session '" + session_id + "' has more than " + std::to_string(max_messages) +
      " messages to load; raise LoadOptions::max_messages (0 disables the limit) to load it");
}

}  // namespace

Result<std::vector<int64_t>> PostgresStore::append_messages(const std::string& session_id,
                                                            const std::vector<Message>& messages) {
  if (messages.empty()) return std::vector<int64_t>();
  return append_step(session_id, messages, {});
}

// The messages, their counters and the usage in one transaction: one commit per step.
Result<std::vector<int64_t>> PostgresStore::append_step(const std::string& session_id,
                                                        const std::vector<Message>& messages,
                                                        const std::vector<UsageDelta>& usage) {
  int64_t tool_calls = 0;
  auto rows = encode_batch(messages, &tool_calls);
  if (!rows.ok()) return rows.status();
  if (rows->empty() && usage.empty()) return std::vector<int64_t>();
  assign_timestamps(*rows, unix_now());
  std::vector<int64_t> ids;
  Status status = pool_->transaction([&](PgConnection& c) -> Status {
    ids.clear();
    if (!rows->empty()) {
      HERMES_RETURN_IF_ERROR(pg_lock_appendable(c, session_id));
      auto inserted = pg_insert_messages(c, session_id, *rows);
      if (!inserted.ok()) return inserted.status();
      ids = std::move(*inserted);
      PgParams p;
      p.add(static_cast<int64_t>(rows->size())).add(tool_calls).add(session_id);
      HERMES_RETURN_IF_ERROR(c.exec("UPDATE sessions SET message_count = message_count + $1, "
                                    "tool_call_count = tool_call_count + $2 WHERE id = $3",
                                    p)
                                 .status());
    }
    for (const UsageDelta& delta : usage) {
      HERMES_RETURN_IF_ERROR(pg_add_usage(c, session_id, delta));
    }
    return {};
  });
  if (!status.ok()) return status;
  return ids;
}

Result<std::vector<Message>> PostgresStore::load_messages(const std::string& session_id,
                                                          const LoadOptions& options) {
  std::vector<Message> conversation;
  // REPEATABLE READ: the chain and its rows come from one snapshot.
  Status status = pool_->transaction([&](PgConnection& c) -> Status {
    conversation.clear();
    HERMES_RETURN_IF_ERROR(c.exec_script("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"));
    auto session = pg_read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    std::vector<SessionInfo> chain;
    if (options.include_ancestors) {
      auto ancestors = pg_ancestors(c, **session);
      if (!ancestors.ok()) return ancestors.status();
      // Only the compression continuations belong to this conversation.
      SessionInfo child = **session;
      for (auto it = ancestors->rbegin(); it != ancestors->rend(); ++it) {
        if (!is_compression_continuation(child, *it)) break;
        chain.insert(chain.begin(), *it);
        child = *it;
      }
    }
    chain.push_back(std::move(**session));
    HERMES_RETURN_IF_ERROR(check_load_size(c, chain, session_id, options.max_messages));
    for (const SessionInfo& s : chain) {
      auto rows = select_rows(c, s.id, /*include_archived=*/false, 0, 0);
      if (!rows.ok()) return rows.status();
      std::vector<Message> segment;
      for (const auto& r : *rows) {
        if (auto m = decode_message(r.row)) segment.push_back(std::move(*m));
      }
      apply_resume_filters(segment);
      if (options.include_ancestors) {
        append_lineage_segment(conversation, std::move(segment));
      } else {
        conversation = std::move(segment);
      }
    }
    return {};
  });
  if (!status.ok()) return status;
  return conversation;
}

Result<std::vector<StoredMessage>> PostgresStore::read_messages(const std::string& session_id,
                                                                const ReadOptions& options) {
  std::vector<StoredMessage> stored;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto session = pg_read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    auto rows =
        select_rows(c, session_id, options.include_archived, options.after_id, options.limit);
    if (!rows.ok()) return rows.status();
    for (auto& r : *rows) {
      if (auto m = decode_message(r.row)) stored.push_back({r.id, std::move(*m), !r.active});
    }
    return {};
  });
  if (!status.ok()) return status;
  return stored;
}

Result<int64_t> PostgresStore::active_message_watermark(const std::string& session_id) {
  int64_t watermark = 0;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    auto session = pg_read_session(c, session_id);
    if (!session.ok()) return session.status();
    if (!session->has_value()) return session_not_found(session_id);
    PgParams p;
    p.add(session_id);
    auto rows =
        c.exec("SELECT COALESCE(MAX(id), 0) FROM messages WHERE session_id = $1 AND active = 1", p);
    if (!rows.ok()) return rows.status();
    watermark = rows->int64(0, 0);
    return {};
  });
  if (!status.ok()) return status;
  return watermark;
}

}  // namespace hermes::store
