#include "store/sqlite_message_rows.hpp"

namespace hermes::store {

const std::string_view kMessageColumnsSql =
    "m.id, m.active, m.compacted, m.role, m.content, m.tool_call_id, m.tool_calls, m.tool_name, "
    "m.timestamp, m.finish_reason, m.reasoning, m.reasoning_content, m.reasoning_details, "
    "m.codex_reasoning_items, m.codex_message_items, m.api_content, m.display_kind";

namespace {

constexpr std::string_view kInsertMessageSql =
    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
    "timestamp, finish_reason, reasoning, reasoning_content, reasoning_details, "
    "codex_reasoning_items, codex_message_items, api_content, display_kind) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

}  // namespace

SelectedRow read_message_row(const Statement& s) {
  SelectedRow selected;
  selected.id = s.int64(0);
  selected.active = s.int64(1) != 0;
  selected.compacted = s.int64(2) != 0;
  MessageRow& row = selected.row;
  row.role = s.text(3);
  row.content = s.optional_text(4);
  row.tool_call_id = s.optional_text(5);
  row.tool_calls = s.optional_text(6);
  row.tool_name = s.optional_text(7);
  row.timestamp = s.real(8);
  row.finish_reason = s.optional_text(9);
  row.reasoning = s.optional_text(10);
  row.reasoning_content = s.optional_text(11);
  row.reasoning_details = s.optional_text(12);
  row.codex_reasoning_items = s.optional_text(13);
  row.codex_message_items = s.optional_text(14);
  row.api_content = s.optional_text(15);
  row.display_kind = s.optional_text(16);
  return selected;
}

Result<int64_t> insert_message_row(Connection& db, const std::string& session_id,
                                   const MessageRow& row) {
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

Status recompute_counters(Connection& db, const std::string& session_id) {
  auto stmt = db.prepare(
      "UPDATE sessions SET "
      "message_count = (SELECT COUNT(*) FROM messages WHERE session_id = ?1 AND active = 1), "
      "tool_call_count = (SELECT COALESCE(SUM(CASE WHEN json_valid(tool_calls) "
      "THEN json_array_length(tool_calls) ELSE 0 END), 0) FROM messages "
      "WHERE session_id = ?1 AND active = 1 AND tool_calls IS NOT NULL) "
      "WHERE id = ?1");
  if (!stmt.ok()) return stmt.status();
  return stmt->bind(1, session_id).run();
}

Result<std::vector<LiveRow>> live_rows(Connection& db, const std::string& session_id) {
  auto stmt = db.prepare(std::string("SELECT ") + std::string(kMessageColumnsSql) +
                         " FROM messages m WHERE m.session_id = ? AND m.active = 1 ORDER BY m.id");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, session_id);
  std::vector<LiveRow> rows;
  for (;;) {
    auto step = stmt->step();
    if (!step.ok()) return step.status();
    if (!*step) return rows;
    SelectedRow selected = read_message_row(*stmt);
    rows.push_back({selected.id, std::move(selected.row)});
  }
}

Status set_row_flags(Connection& db, int64_t id, bool active, bool compacted) {
  auto stmt = db.prepare("UPDATE messages SET active = ?, compacted = ? WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  return stmt->bind(1, int64_t{active}).bind(2, int64_t{compacted}).bind(3, id).run();
}

}  // namespace hermes::store
