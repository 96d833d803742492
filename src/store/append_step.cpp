// SessionStore::append_step for backends that do not write a step in one transaction of
// their own: the messages first, then the usage.
#include "hermes/session_store.hpp"
#include "safety/log.hpp"

namespace hermes {

Result<std::vector<int64_t>> SessionStore::append_step(const std::string& session_id,
                                                       const std::vector<Message>& messages,
                                                       const std::vector<UsageDelta>& usage) {
  std::vector<int64_t> ids;
  if (!messages.empty()) {
    auto appended = append_messages(session_id, messages);
    if (!appended.ok()) return appended.status();
    ids = std::move(*appended);
  }
  for (const UsageDelta& delta : usage) {
    Status s = record_usage(session_id, delta);
    if (s.ok()) continue;
    // Failing now would make the caller retry messages that are already stored.
    if (!messages.empty()) {
      HERMES_LOG_WARN("session {}: usage not recorded: {}", session_id, s.to_string());
      continue;
    }
    return s;
  }
  return ids;
}

}  // namespace hermes
