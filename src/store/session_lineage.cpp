#include "store/session_lineage.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace hermes::store {
namespace {

constexpr std::array<std::string_view, 6> kResetEndReasons = {
    "session_reset", "session_switch", "idle", "daily", "suspended", "resume_pending_expired"};

const Json* marker(const SessionInfo& session, std::string_view key) {
  if (!session.model_config.is_object()) return nullptr;
  auto it = session.model_config.find(key);
  if (it == session.model_config.end() || it->is_null()) return nullptr;
  return &*it;
}

// Markers are inherited verbatim by continuations, so only one naming this parent marks
// the child as a fork of it.
bool marker_names(const SessionInfo& child, std::string_view key, const std::string& parent_id) {
  const Json* value = marker(child, key);
  return value != nullptr && value->is_string() &&
         value->get_ref<const std::string&>() == parent_id;
}

bool is_replayed_user_message(const std::vector<Message>& conversation, const Message& m) {
  if (m.role != Role::kUser || (m.content.empty() && m.parts.is_null())) return false;
  for (auto it = conversation.rbegin(); it != conversation.rend(); ++it) {
    if (it->role == Role::kUser && it->content == m.content && it->parts == m.parts) return true;
    if (it->role == Role::kAssistant && (!it->content.empty() || !it->tool_calls.empty())) {
      return false;
    }
  }
  return false;
}

}  // namespace

bool is_compression_continuation(const SessionInfo& child, const SessionInfo& parent) {
  if (parent.end_reason != "compression" || child.source == "tool") return false;
  for (std::string_view key : {"_branched_from", "_delegate_from", "_reset_from"}) {
    if (marker_names(child, key, parent.id)) return false;
  }
  return true;
}

bool is_listed_as_root(const SessionInfo& session, const SessionInfo* parent) {
  if (session.parent_session_id.empty()) return true;
  if (marker(session, "_branched_from") != nullptr || marker(session, "_reset_from") != nullptr) {
    return true;
  }
  if (parent == nullptr) return false;
  if (parent->end_reason == "branched" && parent->ended_at != 0 &&
      session.started_at >= parent->ended_at) {
    return true;
  }
  const bool reset = std::find(kResetEndReasons.begin(), kResetEndReasons.end(),
                               parent->end_reason) != kResetEndReasons.end();
  return reset && !session.session_key.empty() && session.session_key == parent->session_key;
}

void append_lineage_segment(std::vector<Message>& conversation, std::vector<Message> segment) {
  for (auto& m : segment) {
    if (!is_replayed_user_message(conversation, m)) conversation.push_back(std::move(m));
  }
}

}  // namespace hermes::store
