// Reading and writing rows of the messages table on a SQLite connection, inside the
// caller's transaction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"
#include "store/compaction_plan.hpp"
#include "store/message_codec.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// The column list read_message_row() expects, prefixed by "m.": id, active, compacted,
// then the stored message columns.
extern const std::string_view kMessageColumnsSql;

// The row at the current step of a statement selecting kMessageColumnsSql first.
struct SelectedRow {
  int64_t id = 0;
  bool active = false;
  bool compacted = false;
  MessageRow row;
};
SelectedRow read_message_row(const Statement& stmt);

// Inserts `rows` into the session, in order, with as few statements as it can; returns
// their ids in the same order.
Result<std::vector<int64_t>> insert_message_rows(Connection& db, const std::string& session_id,
                                                 const std::vector<MessageRow>& rows);

// NotFound for a missing session; FailedPrecondition for one closed by compression (its
// conversation continues in the compression child, and rows written here would never be
// loaded again).
Status check_appendable(Connection& db, const std::string& session_id);

// Adds to the session's message and tool-call counters.
Status bump_counters(Connection& db, const std::string& session_id, int64_t messages,
                     int64_t tool_calls);

// Sets the counters to the totals of the session's live rows.
Status recompute_counters(Connection& db, const std::string& session_id);

// The session's live rows, ordered by id.
Result<std::vector<LiveRow>> live_rows(Connection& db, const std::string& session_id);

// Sets the visibility flags of one row.
Status set_row_flags(Connection& db, int64_t id, bool active, bool compacted);

}  // namespace hermes::store
