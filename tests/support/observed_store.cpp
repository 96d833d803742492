#include "support/observed_store.hpp"

namespace hermes::testing {

Status ObservedStore::create_session(const SessionInfo& info) {
  return observed("create_session", nullptr, [&] { return inner_->create_session(info); });
}

Status ObservedStore::end_session(const std::string& session_id, const std::string& end_reason) {
  return observed("end_session", nullptr,
                  [&] { return inner_->end_session(session_id, end_reason); });
}

Result<SessionInfo> ObservedStore::get_session(const std::string& session_id) {
  return inner_->get_session(session_id);
}

Result<std::vector<SessionInfo>> ObservedStore::list_sessions(const ListOptions& options) {
  return inner_->list_sessions(options);
}

Status ObservedStore::delete_session(const std::string& session_id) {
  return observed("delete_session", nullptr, [&] { return inner_->delete_session(session_id); });
}

Result<std::vector<int64_t>> ObservedStore::append_messages(const std::string& session_id,
                                                            const std::vector<Message>& messages) {
  return observed("append_messages", &messages,
                  [&] { return inner_->append_messages(session_id, messages); });
}

Result<std::vector<int64_t>> ObservedStore::append_step(const std::string& session_id,
                                                        const std::vector<Message>& messages,
                                                        const std::vector<UsageDelta>& usage) {
  return observed("append_step", &messages,
                  [&] { return inner_->append_step(session_id, messages, usage); });
}

Result<std::vector<Message>> ObservedStore::load_messages(const std::string& session_id,
                                                          const LoadOptions& options) {
  return inner_->load_messages(session_id, options);
}

Result<std::vector<SearchHit>> ObservedStore::search(const std::string& query,
                                                     const SearchOptions& options) {
  return inner_search().search(query, options);
}

Status ObservedStore::record_usage(const std::string& session_id, const UsageDelta& delta) {
  return observed("record_usage", nullptr, [&] { return inner_->record_usage(session_id, delta); });
}

Status ObservedStore::set_system_prompt(const std::string& session_id, const std::string& prompt) {
  return observed("set_system_prompt", nullptr,
                  [&] { return inner_->set_system_prompt(session_id, prompt); });
}

Status ObservedStore::set_title(const std::string& session_id, const std::string& title) {
  return observed("set_title", nullptr, [&] { return inner_->set_title(session_id, title); });
}

Result<std::vector<StoredMessage>> ObservedStore::read_messages(const std::string& session_id,
                                                                const ReadOptions& options) {
  return inner_search().read_messages(session_id, options);
}

Status ObservedStore::reopen_session(const std::string& session_id) {
  return observed("reopen_session", nullptr,
                  [&] { return inner_compaction().reopen_session(session_id); });
}

Result<std::string> ObservedStore::compression_tip(const std::string& session_id) {
  return inner_compaction().compression_tip(session_id);
}

Result<std::string> ObservedStore::resolve_resume_session_id(const std::string& session_id) {
  return inner_compaction().resolve_resume_session_id(session_id);
}

Result<std::vector<SessionInfo>> ObservedStore::lineage(const std::string& session_id) {
  return inner_compaction().lineage(session_id);
}

Result<int64_t> ObservedStore::active_message_watermark(const std::string& session_id) {
  return inner_compaction().active_message_watermark(session_id);
}

Status ObservedStore::rotate_for_compression(const std::string& old_session_id,
                                             const SessionInfo& child,
                                             const std::vector<Message>& messages,
                                             int64_t watermark, const std::string& lease_holder) {
  return observed("rotate_for_compression", &messages, [&] {
    return inner_compaction().rotate_for_compression(old_session_id, child, messages, watermark,
                                                     lease_holder);
  });
}

Status ObservedStore::compact_in_place(const std::string& session_id,
                                       const std::vector<Message>& messages, int64_t watermark,
                                       const std::string& lease_holder) {
  return observed("compact_in_place", &messages, [&] {
    return inner_compaction().compact_in_place(session_id, messages, watermark, lease_holder);
  });
}

Result<bool> ObservedStore::acquire_compression_lease(const std::string& session_id,
                                                      const std::string& holder,
                                                      double ttl_seconds) {
  return inner_compaction().acquire_compression_lease(session_id, holder, ttl_seconds);
}

Status ObservedStore::renew_compression_lease(const std::string& session_id,
                                              const std::string& holder, double ttl_seconds) {
  return observed("renew_compression_lease", nullptr, [&] {
    return inner_compaction().renew_compression_lease(session_id, holder, ttl_seconds);
  });
}

Status ObservedStore::release_compression_lease(const std::string& session_id,
                                                const std::string& holder) {
  return inner_compaction().release_compression_lease(session_id, holder);
}

Result<std::optional<Json>> ObservedStore::load_route(const std::string& scope,
                                                      const std::string& session_key) {
  return inner_routes().load_route(scope, session_key);
}

Status ObservedStore::save_route(const std::string& scope, const std::string& session_key,
                                 const Json& entry) {
  return inner_routes().save_route(scope, session_key, entry);
}

Status ObservedStore::delete_route(const std::string& scope, const std::string& session_key) {
  return inner_routes().delete_route(scope, session_key);
}

Result<std::vector<std::pair<std::string, Json>>> ObservedStore::list_routes(
    const std::string& scope) {
  return inner_routes().list_routes(scope);
}

}  // namespace hermes::testing
