#include "store/sqlite_message_rows.hpp"

#include <algorithm>

namespace hermes::store {

const std::string_view kMessageColumnsSql =
    "m.id, m.active, m.compacted, m.role, m.content, m.tool_call_id, m.tool_calls, m.tool_name, "
    "m.timestamp, m.finish_reason, m.reasoning, m.reasoning_content, m.reasoning_details, "
    "m.codex_reasoning_items, m.codex_message_items, m.api_content, m.display_kind";

namespace {

constexpr std::string_view kInsertColumnsSql =
    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
    "timestamp, finish_reason, reasoning, reasoning_content, reasoning_details, "
    "codex_reasoning_items, codex_message_items, api_content, display_kind) VALUES ";
constexpr int kInsertParameters = 15;

// Rows per INSERT statement. FTS5 writes the terms it holds in memory out as a new index
// segment whenever a statement inside the transaction opens a savepoint, and every INSERT
// into messages does (its FTS triggers make it a multi-write statement). One statement
// per row therefore left one segment per row for FTS5 to write and later merge; one
// statement per turn leaves one. A turn rarely exceeds this; a longer batch takes a few.
constexpr std::size_t kRowsPerStatement = 16;

std::string insert_sql(std::size_t rows) {
  std::string sql(kInsertColumnsSql);
  for (std::size_t i = 0; i < rows; ++i) {
    sql += i == 0 ? "(" : ", (";
    for (int p = 0; p < kInsertParameters; ++p) sql += p == 0 ? "?" : ", ?";
    sql += ")";
  }
  return sql + " RETURNING id";
}

void bind_row(Statement& stmt, int first, const std::string& session_id, const MessageRow& row) {
  stmt.bind(first, session_id)
      .bind(first + 1, row.role)
      .bind(first + 2, row.content)
      .bind(first + 3, row.tool_call_id)
      .bind(first + 4, row.tool_calls)
      .bind(first + 5, row.tool_name)
      .bind(first + 6, row.timestamp)
      .bind(first + 7, row.finish_reason)
      .bind(first + 8, row.reasoning)
      .bind(first + 9, row.reasoning_content)
      .bind(first + 10, row.reasoning_details)
      .bind(first + 11, row.codex_reasoning_items)
      .bind(first + 12, row.codex_message_items)
      .bind(first + 13, row.api_content)
      .bind(first + 14, row.display_kind);
}

// Inserts rows[begin, end) with one statement and appends their ids, in row order, to `ids`.
Status insert_chunk(Connection& db, const std::string& session_id,
                    const std::vector<MessageRow>& rows, std::size_t begin, std::size_t end,
                    std::vector<int64_t>& ids) {
  auto stmt = db.prepare(insert_sql(end - begin));
  if (!stmt.ok()) return stmt.status();
  for (std::size_t i = begin; i < end; ++i) {
    bind_row(*stmt, static_cast<int>(i - begin) * kInsertParameters + 1, session_id, rows[i]);
  }
  const std::size_t first = ids.size();
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    ids.push_back(stmt->int64(0));
  }
  if (ids.size() - first != end - begin) {
    return Status::internal("inserted " + std::to_string(end - begin) + " messages but got " +
                            std::to_string(ids.size() - first) + " ids back");
  }
  // RETURNING promises no order; the rows of one statement get increasing ids in the
  // order of its VALUES (AUTOINCREMENT), so sorted ids are in row order.
  std::sort(ids.begin() + static_cast<std::ptrdiff_t>(first), ids.end());
  return {};
}

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

Result<std::vector<int64_t>> insert_message_rows(Connection& db, const std::string& session_id,
                                                 const std::vector<MessageRow>& rows) {
  std::vector<int64_t> ids;
  ids.reserve(rows.size());
  for (std::size_t begin = 0; begin < rows.size(); begin += kRowsPerStatement) {
    const std::size_t end = std::min(rows.size(), begin + kRowsPerStatement);
    HERMES_RETURN_IF_ERROR(insert_chunk(db, session_id, rows, begin, end, ids));
  }
  return ids;
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
