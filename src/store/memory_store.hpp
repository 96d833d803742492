// The in-memory store: the SessionStore contract without a file, for tests and ephemeral
// agents. Messages are kept in their stored row form (message_codec), so what comes back
// is exactly what the SQLite store would return; search is a substring scan.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hermes/session_store.hpp"
#include "store/compaction_plan.hpp"
#include "store/message_codec.hpp"

namespace hermes::store {

// Thread-safety: every call holds one mutex.
class MemoryStore final : public SessionStore,
                          public SessionSearch,
                          public SessionCompaction,
                          public SessionRoutes {
 public:
  // Every capability.
  SessionSearch* search_capability() override { return this; }
  SessionCompaction* compaction_capability() override { return this; }
  SessionRoutes* routes_capability() override { return this; }

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

  // memory_lineage.cpp
  Result<std::vector<StoredMessage>> read_messages(const std::string& session_id,
                                                   const ReadOptions& options) override;
  Status reopen_session(const std::string& session_id) override;
  Result<std::string> compression_tip(const std::string& session_id) override;
  Result<std::string> resolve_resume_session_id(const std::string& session_id) override;
  Result<std::vector<SessionInfo>> lineage(const std::string& session_id) override;
  Result<int64_t> active_message_watermark(const std::string& session_id) override;
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
  struct Row {
    int64_t id = 0;
    MessageRow row;
    bool active = true;
    bool compacted = false;
  };
  struct Record {
    SessionInfo info;
    std::vector<Row> rows;
  };
  struct Lease {
    std::string holder;
    double expires_at = 0;
  };

  Record* find(const std::string& id);
  std::vector<const Record*> compression_ancestors(const Record& record);
  std::string lineage_root(const std::string& id);
  const Record* title_holder(const std::string& title, const std::string& except);
  std::vector<SessionInfo> children_of(const std::string& id);
  Status check_appendable(const std::string& session_id);
  Status check_lease(const std::string& session_id, const std::string& holder);
  void append_row(Record& record, MessageRow row, bool active = true, bool compacted = false);
  static void recount(Record& record);
  std::vector<SearchContextMessage> context_of(const Record& record, int64_t message_id);

  std::mutex mutex_;
  std::map<std::string, Record> sessions_;                      // Guarded by mutex_.
  std::map<std::string, Lease> leases_;                         // Guarded by mutex_.
  std::map<std::pair<std::string, std::string>, Json> routes_;  // Guarded by mutex_.
  int64_t next_message_id_ = 1;                                 // Guarded by mutex_.
};

}  // namespace hermes::store
