// A SessionStore that forwards every call to another store and reports each write to an
// observer before and after it reaches the store, so a test can act at a precise point of
// persistence (the crash harness kills its own process there). Of the compression lease's
// calls only renewals are reported: they happen while a compaction is under way.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/session_store.hpp"

namespace hermes::testing {

// One write to the store: the method's name, and the messages it carries (if any).
struct StoreWrite {
  std::string_view method;  // "append_step", "rotate_for_compression", ...
  const std::vector<Message>* messages = nullptr;
  bool committed = false;  // False: about to be called; true: it returned ok.
};

// It offers the capabilities its inner store offers.
class ObservedStore : public SessionStore,
                      public SessionSearch,
                      public SessionCompaction,
                      public SessionRoutes {
 public:
  ObservedStore(std::shared_ptr<SessionStore> inner,
                std::function<void(const StoreWrite&)> observer)
      : inner_(std::move(inner)), observer_(std::move(observer)) {}

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
  SessionSearch* search_capability() override {
    return inner_->search_capability() != nullptr ? this : nullptr;
  }
  SessionCompaction* compaction_capability() override {
    return inner_->compaction_capability() != nullptr ? this : nullptr;
  }
  SessionRoutes* routes_capability() override {
    return inner_->routes_capability() != nullptr ? this : nullptr;
  }
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
  SessionSearch& inner_search() { return *inner_->search_capability(); }
  SessionCompaction& inner_compaction() { return *inner_->compaction_capability(); }
  SessionRoutes& inner_routes() { return *inner_->routes_capability(); }

  // Runs `write` between the two observer calls; the second only when it succeeded.
  template <typename F>
  auto observed(std::string_view method, const std::vector<Message>* messages, F&& write) {
    observer_(StoreWrite{method, messages, false});
    auto result = write();
    if (result.ok()) observer_(StoreWrite{method, messages, true});
    return result;
  }

  std::shared_ptr<SessionStore> inner_;
  std::function<void(const StoreWrite&)> observer_;
};

}  // namespace hermes::testing
