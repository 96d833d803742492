// The PostgreSQL session store: the SessionStore contract on a server shared by many
// processes on many hosts. Every multi-statement operation is one transaction; writes to
// a session take its row lock first (SELECT ... FOR UPDATE), so concurrent appends,
// rotations and compactions of one session are serialised, and conflicts are retried.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hermes/postgres_store.hpp"
#include "hermes/session_store.hpp"
#include "store/fts_query.hpp"
#include "store/postgres_connection.hpp"

namespace hermes::store {

// Thread-safety: safe for concurrent use (a pool of connections, one per call).
class PostgresStore final : public SessionStore,
                            public SessionSearch,
                            public SessionCompaction,
                            public SessionRoutes {
 public:
  // Every capability.
  SessionSearch* search_capability() override { return this; }
  SessionCompaction* compaction_capability() override { return this; }
  SessionRoutes* routes_capability() override { return this; }

  static Result<std::shared_ptr<SessionStore>> open(const std::string& conninfo,
                                                    const PostgresStoreOptions& options);

  // postgres_sessions.cpp
  Status create_session(const SessionInfo& info) override;
  Status end_session(const std::string& session_id, const std::string& end_reason) override;
  Result<SessionInfo> get_session(const std::string& session_id) override;
  Result<std::vector<SessionInfo>> list_sessions(const ListOptions& options) override;
  Status delete_session(const std::string& session_id) override;
  Status record_usage(const std::string& session_id, const UsageDelta& delta) override;
  Status set_system_prompt(const std::string& session_id, const std::string& prompt) override;
  Status set_title(const std::string& session_id, const std::string& title) override;
  Status reopen_session(const std::string& session_id) override;
  Result<std::string> compression_tip(const std::string& session_id) override;
  Result<std::string> resolve_resume_session_id(const std::string& session_id) override;
  Result<std::vector<SessionInfo>> lineage(const std::string& session_id) override;

  // postgres_messages.cpp
  Result<std::vector<int64_t>> append_messages(const std::string& session_id,
                                               const std::vector<Message>& messages) override;
  Result<std::vector<int64_t>> append_step(const std::string& session_id,
                                           const std::vector<Message>& messages,
                                           const std::vector<UsageDelta>& usage) override;
  Result<std::vector<Message>> load_messages(const std::string& session_id,
                                             const LoadOptions& options) override;
  Result<std::vector<StoredMessage>> read_messages(const std::string& session_id,
                                                   const ReadOptions& options) override;
  Result<int64_t> active_message_watermark(const std::string& session_id) override;

  // postgres_search.cpp
  Result<std::vector<SearchHit>> search(const std::string& query,
                                        const SearchOptions& options) override;

  // postgres_compaction.cpp
  Status rotate_for_compression(const std::string& old_session_id, const SessionInfo& child,
                                const std::vector<Message>& messages, int64_t watermark,
                                const std::string& lease_holder) override;
  Status compact_in_place(const std::string& session_id, const std::vector<Message>& messages,
                          int64_t watermark, const std::string& lease_holder) override;
  Result<bool> acquire_compression_lease(const std::string& session_id, const std::string& holder,
                                         double ttl_seconds) override;
  Status renew_compression_lease(const std::string& session_id, const std::string& holder,
                                 double ttl_seconds) override;
  Status release_compression_lease(const std::string& session_id,
                                   const std::string& holder) override;
  Result<std::optional<Json>> load_route(const std::string& scope,
                                         const std::string& session_key) override;
  Status save_route(const std::string& scope, const std::string& session_key,
                    const Json& entry) override;
  Status delete_route(const std::string& scope, const std::string& session_key) override;
  Result<std::vector<std::pair<std::string, Json>>> list_routes(const std::string& scope) override;

 private:
  explicit PostgresStore(std::unique_ptr<PgPool> pool) : pool_(std::move(pool)) {}

  Result<std::vector<SearchHit>> word_search(PgConnection& c, const std::string& sanitized,
                                             const SearchOptions& options);
  Result<std::vector<SearchHit>> like_search(PgConnection& c, const std::vector<LikeGroup>& groups,
                                             const SearchOptions& options, bool whole_tool_rows);

  // Substring searches need nothing more when pg_trgm is installed: the planner uses its
  // indexes for the same LIKE queries.
  std::unique_ptr<PgPool> pool_;
};

}  // namespace hermes::store
