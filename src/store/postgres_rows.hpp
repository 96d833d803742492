// Reading and writing session and message rows on a PostgreSQL connection, inside the
// caller's transaction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/session_store.hpp"
#include "store/compaction_plan.hpp"
#include "store/message_codec.hpp"
#include "store/postgres_connection.hpp"

namespace hermes::store {

// SELECT list and FROM clause of a session row; append WHERE/ORDER BY.
extern const std::string_view kPgSelectSessionSql;
SessionInfo pg_session_row(const PgResult& rows, int row);

// The session, or nullopt. With `for_update`, its row stays locked until the transaction
// ends.
Result<std::optional<SessionInfo>> pg_read_session(PgConnection& c, const std::string& id,
                                                   bool for_update = false);
Result<std::vector<SessionInfo>> pg_child_sessions(PgConnection& c, const std::string& parent_id);
// Every ancestor through parent_session_id, root first (without `session`).
Result<std::vector<SessionInfo>> pg_ancestors(PgConnection& c, const SessionInfo& session);
Result<std::string> pg_lineage_root(PgConnection& c, const std::string& id);
// The session `id` locked for writing: NotFound when missing, FailedPrecondition when it
// was closed by compression.
Status pg_lock_appendable(PgConnection& c, const std::string& id);
Status pg_insert_session(PgConnection& c, const SessionInfo& info,
                         const std::optional<std::string>& title, double started_at);
Status pg_store_system_prompt(PgConnection& c, const std::string& id, const std::string& prompt);
Result<std::optional<std::string>> pg_title_holder(PgConnection& c, const std::string& title,
                                                   const std::string& except);
Result<std::string> pg_next_lineage_title(PgConnection& c, const std::string& parent_title);
// Adds `delta` to the session's usage totals; NotFound when there is no such session.
Status pg_add_usage(PgConnection& c, const std::string& session_id, const UsageDelta& delta);

// SELECT list of a message row ("m." columns), read by pg_message_row().
extern const std::string_view kPgMessageColumnsSql;
struct PgMessageRow {
  int64_t id = 0;
  bool active = false;
  bool compacted = false;
  MessageRow row;
};
PgMessageRow pg_message_row(const PgResult& rows, int row, int first_column = 0);

// Inserts `rows` into the session in order; returns their ids.
Result<std::vector<int64_t>> pg_insert_messages(PgConnection& c, const std::string& session_id,
                                                const std::vector<MessageRow>& rows);
Result<std::vector<LiveRow>> pg_live_rows(PgConnection& c, const std::string& session_id);
Status pg_recompute_counters(PgConnection& c, const std::string& session_id);

}  // namespace hermes::store
