// The SQLite session store: the embedded default, in the file format upstream Hermes uses
// (state.db), safe for many threads and many processes on one file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hermes/session_store.hpp"
#include "store/fts_query.hpp"
#include "store/fts_ranking_cache.hpp"
#include "store/message_codec.hpp"
#include "store/sqlite_database.hpp"
#include "store/sqlite_schema.hpp"

namespace hermes::store {

// Thread-safety: safe for concurrent use; every call is one transaction on the store's
// connection (see SqliteDatabase).
class SqliteStore final : public SessionStore,
                          public SessionSearch,
                          public SessionCompaction,
                          public SessionRoutes {
 public:
  // Every capability.
  SessionSearch* search_capability() override { return this; }
  SessionCompaction* compaction_capability() override { return this; }
  SessionRoutes* routes_capability() override { return this; }

  static Result<std::shared_ptr<SessionStore>> open(const std::string& path,
                                                    const SqliteStoreOptions& options);

  Status create_session(const SessionInfo& info) override;
  Status end_session(const std::string& session_id, const std::string& end_reason) override;
  Result<SessionInfo> get_session(const std::string& session_id) override;
  Result<std::vector<SessionInfo>> list_sessions(const ListOptions& options) override;
  Status delete_session(const std::string& session_id) override;
  Result<std::vector<int64_t>> append_messages(const std::string& session_id,
                                               const std::vector<Message>& messages) override;
  Result<std::vector<int64_t>> append_step(const std::string& session_id,
                                           const std::vector<Message>& messages,
                                           const std::vector<UsageDelta>& usage) override;
  Result<std::vector<Message>> load_messages(const std::string& session_id,
                                             const LoadOptions& options) override;
  Result<std::vector<SearchHit>> search(const std::string& query,
                                        const SearchOptions& options) override;
  Status record_usage(const std::string& session_id, const UsageDelta& delta) override;
  Status set_system_prompt(const std::string& session_id, const std::string& prompt) override;
  Status set_title(const std::string& session_id, const std::string& title) override;

  // sqlite_messages.cpp
  Result<std::vector<StoredMessage>> read_messages(const std::string& session_id,
                                                   const ReadOptions& options) override;

  // sqlite_lineage.cpp
  Status reopen_session(const std::string& session_id) override;
  Result<std::string> compression_tip(const std::string& session_id) override;
  Result<std::string> resolve_resume_session_id(const std::string& session_id) override;
  Result<std::vector<SessionInfo>> lineage(const std::string& session_id) override;

  // sqlite_compaction.cpp
  Result<int64_t> active_message_watermark(const std::string& session_id) override;
  Status rotate_for_compression(const std::string& old_session_id, const SessionInfo& child,
                                const std::vector<Message>& messages, int64_t watermark,
                                const std::string& lease_holder) override;
  Status compact_in_place(const std::string& session_id, const std::vector<Message>& messages,
                          int64_t watermark, const std::string& lease_holder) override;

  // sqlite_lease.cpp
  Result<bool> acquire_compression_lease(const std::string& session_id, const std::string& holder,
                                         double ttl_seconds) override;
  Status renew_compression_lease(const std::string& session_id, const std::string& holder,
                                 double ttl_seconds) override;
  Status release_compression_lease(const std::string& session_id,
                                   const std::string& holder) override;

  // sqlite_routes.cpp
  Result<std::optional<Json>> load_route(const std::string& scope,
                                         const std::string& session_key) override;
  Status save_route(const std::string& scope, const std::string& session_key,
                    const Json& entry) override;
  Status delete_route(const std::string& scope, const std::string& session_key) override;
  Result<std::vector<std::pair<std::string, Json>>> list_routes(const std::string& scope) override;

 private:
  // What the file and this SQLite build can do for search, fixed at open.
  struct SearchIndexes {
    bool words = false;    // messages_fts is usable.
    bool trigram = false;  // messages_fts_trigram is usable.
  };

  SqliteStore(std::unique_ptr<SqliteDatabase> db, SearchIndexes indexes)
      : db_(std::move(db)), indexes_(indexes) {}

  // sqlite_messages.cpp
  Result<std::vector<Message>> load_segment(Connection& db, const std::string& session_id);

  // sqlite_search.cpp
  Result<std::vector<SearchHit>> run_search(Connection& db, const std::string& sanitized,
                                            const SearchOptions& options);
  // How one query's matches are ranked: the SQL expression and the row lengths it may use.
  struct Ranking {
    std::string sql;
    std::shared_ptr<const FtsRowLengths> lengths;
  };
  // `phrases`: the match's phrases (fts_phrases), nullopt when it could not split them.
  Ranking ranking(Connection& db, const std::string& table,
                  const std::optional<std::vector<std::string>>& phrases);
  Result<std::vector<SearchHit>> match_search(Connection& db, const std::string& table,
                                              const std::string& match,
                                              const SearchOptions& options);
  Result<std::vector<SearchHit>> like_search(Connection& db, const std::vector<LikeGroup>& groups,
                                             const SearchOptions& options);
  Result<std::vector<SearchHit>> word_search(Connection& db, const std::string& sanitized,
                                             const SearchOptions& options);
  Result<std::vector<SearchHit>> cjk_search(Connection& db, const std::string& sanitized,
                                            const SearchOptions& options);
  Result<bool> fts_marked_stale(Connection& db);

  std::unique_ptr<SqliteDatabase> db_;
  const SearchIndexes indexes_;
  // Phrase counts and row lengths for ranking, kept between searches.
  FtsRankingCache ranking_cache_;
};

}  // namespace hermes::store
