#include "store/session_lineage.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
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

namespace {

// Depth of the forward walk from the tip when resolving a resume target.
constexpr std::size_t kMaxResumeDepth = 32;

// Sorts better continuations first.
bool better_continuation(const SessionInfo& a, const SessionInfo& b) {
  const bool a_compressed = a.end_reason == "compression";
  const bool b_compressed = b.end_reason == "compression";
  if (a_compressed != b_compressed) return a_compressed;
  const bool a_live = a.ended_at == 0;
  const bool b_live = b.ended_at == 0;
  if (a_live != b_live) return a_live;
  if (a.started_at != b.started_at) return a.started_at > b.started_at;
  return a.id > b.id;
}

}  // namespace

SessionInfo continuation_row(const SessionInfo& parent, const SessionInfo& child) {
  SessionInfo row = child;
  auto inherit = [](std::string& field, const std::string& from) {
    if (field.empty()) field = from;
  };
  inherit(row.model, parent.model);
  inherit(row.user_id, parent.user_id);
  inherit(row.session_key, parent.session_key);
  inherit(row.system_prompt, parent.system_prompt);
  inherit(row.billing_provider, parent.billing_provider);
  inherit(row.billing_base_url, parent.billing_base_url);
  if (row.model_config.is_null()) row.model_config = parent.model_config;
  row.parent_session_id = parent.id;
  row.title.clear();
  row.ended_at = 0;
  row.end_reason.clear();
  return row;
}

const SessionInfo* preferred_continuation(const SessionInfo& parent,
                                          const std::vector<SessionInfo>& children) {
  const SessionInfo* best = nullptr;
  for (const SessionInfo& child : children) {
    if (!is_compression_continuation(child, parent)) continue;
    if (best == nullptr || better_continuation(child, *best)) best = &child;
  }
  return best;
}

Result<std::string> walk_to_compression_tip(
    const SessionInfo& start, const ChildrenOf& children,
    const std::function<Result<std::optional<SessionInfo>>(const std::string&)>& get) {
  SessionInfo current = start;
  std::set<std::string> seen = {start.id};
  for (std::size_t depth = 0; depth < kMaxLineageDepth; ++depth) {
    if (current.end_reason != "compression") break;  // Only a compressed row continues.
    auto kids = children(current.id);
    if (!kids.ok()) return kids.status();
    const SessionInfo* next = preferred_continuation(current, *kids);
    if (next == nullptr || !seen.insert(next->id).second) break;
    auto row = get(next->id);
    if (!row.ok()) return row.status();
    if (!row->has_value()) break;
    current = std::move(**row);
  }
  return current.id;
}

Result<std::string> walk_to_resume_session(
    const SessionInfo& start, const ChildrenOf& children,
    const std::function<Result<std::optional<SessionInfo>>(const std::string&)>& get,
    const HasMessages& has_messages) {
  auto tip = walk_to_compression_tip(start, children, get);
  if (!tip.ok()) return tip.status();
  auto row = get(*tip);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return start.id;
  SessionInfo current = std::move(**row);
  std::string deepest_with_messages;
  std::set<std::string> seen = {current.id};
  for (std::size_t depth = 0; depth <= kMaxResumeDepth; ++depth) {
    auto any = has_messages(current.id);
    if (!any.ok()) return any.status();
    if (*any) deepest_with_messages = current.id;
    auto kids = children(current.id);
    if (!kids.ok()) return kids.status();
    const SessionInfo* next = nullptr;
    for (const SessionInfo& child : *kids) {
      if (!is_compression_continuation(child, current)) continue;
      if (next == nullptr || child.started_at > next->started_at ||
          (child.started_at == next->started_at && child.id > next->id)) {
        next = &child;
      }
    }
    if (next == nullptr || !seen.insert(next->id).second) break;
    SessionInfo following = *next;
    current = std::move(following);
  }
  return deepest_with_messages.empty() ? start.id : deepest_with_messages;
}

}  // namespace hermes::store
