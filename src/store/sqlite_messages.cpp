// Appending and loading transcripts in the SQLite store.
#include <string>

#include "store/session_lineage.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/sqlite_store.hpp"

namespace hermes::store {
namespace {

constexpr std::string_view kInsertMessageSql =
    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
    "timestamp, finish_reason, reasoning, reasoning_content, reasoning_details, "
    "codex_reasoning_items, codex_message_items, api_content, display_kind) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

constexpr std::string_view kSelectMessagesSql =
    "SELECT role, content, tool_call_id, tool_calls, tool_name, timestamp, finish_reason, "
    "reasoning, reasoning_content, reasoning_details, codex_reasoning_items, "
    "codex_message_items, api_content, display_kind "
    "FROM messages WHERE session_id = ? AND active = 1 ORDER BY id";

MessageRow read_message_row(const Statement& s) {
  MessageRow row;
  row.role = s.text(0);
  row.content = s.optional_text(1);
  row.tool_call_id = s.optional_text(2);
  row.tool_calls = s.optional_text(3);
  row.tool_name = s.optional_text(4);
  row.timestamp = s.real(5);
  row.finish_reason = s.optional_text(6);
  row.reasoning = s.optional_text(7);
  row.reasoning_content = s.optional_text(8);
  row.reasoning_details = s.optional_text(9);
  row.codex_reasoning_items = s.optional_text(10);
  row.codex_message_items = s.optional_text(11);
  row.api_content = s.optional_text(12);
  row.display_kind = s.optional_text(13);
  return row;
}

Result<int64_t> insert_row(Connection& db, const std::string& session_id, const MessageRow& row) {
  auto stmt = db.prepare(kInsertMessageSql);
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id)
      .bind(2, row.role)
      .bind(3, row.content)
      .bind(4, row.tool_call_id)
      .bind(5, row.tool_calls)
      .bind(6, row.tool_name)
      .bind(7, row.timestamp)
      .bind(8, row.finish_reason)
      .bind(9, row.reasoning)
      .bind(10, row.reasoning_content)
      .bind(11, row.reasoning_details)
      .bind(12, row.codex_reasoning_items)
      .bind(13, row.codex_message_items)
      .bind(14, row.api_content)
      .bind(15, row.display_kind);
  HERMES_RETURN_IF_ERROR(stmt->run());
  return db.last_insert_rowid();
}

// Appends are refused into a missing session and into one closed by compression: the
// conversation continues in the compression child, and rows written to the parent would
// never be loaded again.
Status check_appendable(Connection& db, const std::string& session_id) {
  auto stmt = db.prepare("SELECT ended_at, end_reason FROM sessions WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return Status::not_found("no session '" + session_id + "'");
  if (!stmt->is_null(0) && stmt->text(1) == "compression") {
    return Status::failed_precondition("session '" + session_id +
                                       "' was closed by compression; its conversation continues "
                                       "in the compression child");
  }
  return {};
}

Status bump_counters(Connection& db, const std::string& session_id, int64_t messages,
                     int64_t tool_calls) {
  auto stmt = db.prepare(
      "UPDATE sessions SET message_count = COALESCE(message_count, 0) + ?, "
      "tool_call_count = COALESCE(tool_call_count, 0) + ? WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  return stmt->bind(1, messages).bind(2, tool_calls).bind(3, session_id).run();
}

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

}  // namespace

Result<std::vector<int64_t>> SqliteStore::append_messages(const std::string& session_id,
                                                          const std::vector<Message>& messages) {
  std::vector<MessageRow> rows;
  rows.reserve(messages.size());
  int64_t tool_calls = 0;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto row = encode_message(messages[i]);
    if (!row.ok()) {
      return Status::invalid_argument("messages[" + std::to_string(i) +
                                      "]: " + row.status().message());
    }
    tool_calls += row->tool_call_count;
    rows.push_back(std::move(*row));
  }
  if (rows.empty()) return std::vector<int64_t>();
  assign_timestamps(rows, unix_now());

  std::vector<int64_t> ids;
  Status status = db_->write(
      [&](Connection& c) -> Status {
        ids.clear();
        HERMES_RETURN_IF_ERROR(check_appendable(c, session_id));
        for (const MessageRow& row : rows) {
          auto id = insert_row(c, session_id, row);
          if (!id.ok()) return id.status();
          ids.push_back(*id);
        }
        return bump_counters(c, session_id, static_cast<int64_t>(rows.size()), tool_calls);
      },
      kTranscriptWritePatience);
  if (!status.ok()) return status;
  return ids;
}

Result<std::vector<Message>> SqliteStore::load_segment(Connection& c,
                                                       const std::string& session_id) {
  auto stmt = c.prepare(kSelectMessagesSql);
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  std::vector<Message> messages;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) return messages;
    if (auto m = decode_message(read_message_row(*stmt))) messages.push_back(std::move(*m));
  }
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

    if (options.max_messages > 0) {
      const auto cap = static_cast<int64_t>(options.max_messages);
      int64_t total = 0;
      for (const SessionInfo& s : chain) {
        auto n = count_active(c, s.id, cap + 1 - total);
        if (!n.ok()) return n.status();
        total += *n;
        if (total > cap) return too_many_messages(session_id, options.max_messages);
      }
    }
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

}  // namespace hermes::store
