// The in-memory store: stored rows, lineage, compression, leases and lane routing.
#include <algorithm>
#include <set>

#include "store/compression_lease.hpp"
#include "store/memory_store.hpp"
#include "store/search_context.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/store_errors.hpp"

namespace hermes::store {
namespace {

Status invalid_lease_request(const std::string& holder, double ttl_seconds) {
  if (holder.empty()) return Status::invalid_argument("holder must not be empty");
  if (!(ttl_seconds > 0)) return Status::invalid_argument("ttl_seconds must be positive");
  return {};
}

}  // namespace

// ---- Helpers ----

std::vector<SessionInfo> MemoryStore::children_of(const std::string& id) {
  std::vector<SessionInfo> children;
  for (const auto& [child_id, record] : sessions_) {
    if (record.info.parent_session_id == id) children.push_back(record.info);
  }
  return children;
}

Status MemoryStore::check_appendable(const std::string& session_id) {
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  if (record->info.ended_at != 0 && record->info.end_reason == "compression") {
    return Status::failed_precondition("session '" + session_id +
                                       "' was closed by compression; its conversation continues "
                                       "in the compression child");
  }
  return {};
}

Status MemoryStore::check_lease(const std::string& session_id, const std::string& holder) {
  if (holder.empty()) return {};
  auto it = leases_.find(session_id);
  if (it == leases_.end() || it->second.holder != holder) {
    return Status::failed_precondition(lease_lost_message(session_id, holder));
  }
  return {};
}

void MemoryStore::append_row(Record& record, MessageRow row, bool active, bool compacted) {
  if (active) {
    record.info.message_count += 1;
    record.info.tool_call_count += row.tool_call_count;
  }
  record.rows.push_back({next_message_id_++, std::move(row), active, compacted});
}

void MemoryStore::recount(Record& record) {
  record.info.message_count = 0;
  record.info.tool_call_count = 0;
  for (const Row& r : record.rows) {
    if (!r.active) continue;
    record.info.message_count += 1;
    record.info.tool_call_count += r.row.tool_call_count;
  }
}

std::vector<SearchContextMessage> MemoryStore::context_of(const Record& record,
                                                          int64_t message_id) {
  std::vector<const Row*> visible;
  for (const Row& r : record.rows) {
    if (r.active || r.compacted) visible.push_back(&r);
  }
  std::vector<SearchContextMessage> context;
  for (std::size_t i = 0; i < visible.size(); ++i) {
    if (visible[i]->id != message_id) continue;
    if (i > 0) context.push_back(context_message(visible[i - 1]->id, visible[i - 1]->row));
    if (i + 1 < visible.size()) {
      context.push_back(context_message(visible[i + 1]->id, visible[i + 1]->row));
    }
  }
  return context;
}

// ---- Rows and lineage ----

Result<std::vector<StoredMessage>> MemoryStore::read_messages(const std::string& session_id,
                                                              const ReadOptions& options) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  std::vector<StoredMessage> stored;
  for (const Row& r : record->rows) {
    if (options.limit > 0 && stored.size() >= options.limit) break;
    if (r.id <= options.after_id) continue;
    if (!r.active && !(options.include_archived && r.compacted)) continue;
    if (auto m = decode_message(r.row)) stored.push_back({r.id, std::move(*m), !r.active});
  }
  return stored;
}

Status MemoryStore::reopen_session(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  if (record->info.end_reason == "compression") {
    return Status::failed_precondition("session '" + session_id +
                                       "' was closed by compression and cannot be reopened");
  }
  record->info.ended_at = 0;
  record->info.end_reason.clear();
  return {};
}

Result<std::string> MemoryStore::compression_tip(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  ChildrenOf children = [&](const std::string& id) -> Result<std::vector<SessionInfo>> {
    return children_of(id);
  };
  auto get = [&](const std::string& id) -> Result<std::optional<SessionInfo>> {
    const Record* r = find(id);
    return r == nullptr ? std::optional<SessionInfo>() : std::optional<SessionInfo>(r->info);
  };
  return walk_to_compression_tip(record->info, children, get);
}

Result<std::string> MemoryStore::resolve_resume_session_id(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  ChildrenOf children = [&](const std::string& id) -> Result<std::vector<SessionInfo>> {
    return children_of(id);
  };
  auto get = [&](const std::string& id) -> Result<std::optional<SessionInfo>> {
    const Record* r = find(id);
    return r == nullptr ? std::optional<SessionInfo>() : std::optional<SessionInfo>(r->info);
  };
  HasMessages any = [&](const std::string& id) -> Result<bool> {
    const Record* r = find(id);
    return r != nullptr &&
           std::any_of(r->rows.begin(), r->rows.end(), [](const Row& row) { return row.active; });
  };
  return walk_to_resume_session(record->info, children, get, any);
}

Result<std::vector<SessionInfo>> MemoryStore::lineage(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  std::vector<SessionInfo> chain = {record->info};
  std::set<std::string> seen = {session_id};
  while (chain.size() < kMaxLineageDepth) {
    const std::string& parent_id = chain.back().parent_session_id;
    const Record* parent = find(parent_id);
    if (parent == nullptr || !seen.insert(parent_id).second) break;
    chain.push_back(parent->info);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

// ---- Compression ----

Result<int64_t> MemoryStore::active_message_watermark(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  int64_t watermark = 0;
  for (const Row& r : record->rows) {
    if (r.active) watermark = std::max(watermark, r.id);
  }
  return watermark;
}

Status MemoryStore::rotate_for_compression(const std::string& old_session_id,
                                           const SessionInfo& child,
                                           const std::vector<Message>& messages, int64_t watermark,
                                           const std::string& lease_holder) {
  if (child.id.empty()) return Status::invalid_argument("child.id must not be empty");
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  auto title = child.title.empty()
                   ? Result<std::optional<std::string>>(std::optional<std::string>())
                   : sanitize_title(child.title);
  if (!title.ok()) return title.status();
  std::lock_guard lock(mutex_);
  HERMES_RETURN_IF_ERROR(check_lease(old_session_id, lease_holder));
  Record* parent = find(old_session_id);
  if (parent == nullptr) return session_not_found(old_session_id);
  if (parent->info.ended_at != 0) {
    return Status::failed_precondition("session '" + old_session_id + "' already ended (" +
                                       parent->info.end_reason + ")");
  }
  if (find(child.id) != nullptr) {
    return Status::already_exists("session '" + child.id + "' already exists");
  }
  std::string child_title = title->value_or("");
  if (!child_title.empty()) {
    if (const Record* holder = title_holder(child_title, child.id)) {
      return Status::already_exists("title '" + child_title + "' is already used by session '" +
                                    holder->info.id + "'");
    }
  } else if (!parent->info.title.empty()) {
    const std::string base = title_base(parent->info.title);
    std::vector<std::string> used;
    for (const auto& [id, r] : sessions_) {
      if (!r.info.title.empty() && title_base(r.info.title) == base) used.push_back(r.info.title);
    }
    child_title = next_title_in_lineage(parent->info.title, used);
  }
  SessionInfo row = continuation_row(parent->info, child);
  row.title = child_title;
  row.started_at = child.started_at > 0 ? child.started_at : unix_now();
  row.message_count = row.tool_call_count = row.api_call_count = 0;
  row.usage = Usage{};
  row.estimated_cost_usd = 0;
  parent->info.ended_at = unix_now();
  parent->info.end_reason = "compression";
  std::vector<MessageRow> late;
  for (const Row& r : parent->rows) {
    if (r.active && r.id > watermark) late.push_back(r.row);
  }
  Record& created = sessions_[child.id];
  created.info = std::move(row);
  for (auto& r : *rows) append_row(created, std::move(r));
  for (auto& r : late) append_row(created, std::move(r));
  return {};
}

Status MemoryStore::compact_in_place(const std::string& session_id,
                                     const std::vector<Message>& messages, int64_t watermark,
                                     const std::string& lease_holder) {
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  assign_timestamps(*rows, unix_now());
  std::lock_guard lock(mutex_);
  HERMES_RETURN_IF_ERROR(check_lease(session_id, lease_holder));
  HERMES_RETURN_IF_ERROR(check_appendable(session_id));
  Record& record = *find(session_id);
  std::vector<LiveRow> live;
  for (const Row& r : record.rows) {
    if (r.active) live.push_back({r.id, r.row});
  }
  const CompactionPlan plan = plan_compaction(live, *rows, watermark);
  const std::set<int64_t> hidden(plan.hidden.begin(), plan.hidden.end());
  std::vector<MessageRow> carried;
  for (const LiveRow* r : plan.carried) carried.push_back(r->row);
  for (Row& r : record.rows) {
    if (!r.active) continue;
    r.active = false;
    r.compacted = hidden.count(r.id) == 0;
  }
  for (auto& r : *rows) append_row(record, std::move(r));
  for (auto& r : carried) append_row(record, std::move(r));
  recount(record);
  return {};
}

// ---- Leases ----

Result<bool> MemoryStore::acquire_compression_lease(const std::string& session_id,
                                                    const std::string& holder, double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(invalid_lease_request(holder, ttl_seconds));
  std::lock_guard lock(mutex_);
  const double now = unix_now();
  auto it = leases_.find(session_id);
  if (it != leases_.end() && it->second.holder != holder &&
      !lease_is_stale(it->second.holder, it->second.expires_at, now)) {
    return false;
  }
  leases_[session_id] = Lease{holder, now + ttl_seconds};
  return true;
}

Status MemoryStore::renew_compression_lease(const std::string& session_id,
                                            const std::string& holder, double ttl_seconds) {
  HERMES_RETURN_IF_ERROR(invalid_lease_request(holder, ttl_seconds));
  std::lock_guard lock(mutex_);
  HERMES_RETURN_IF_ERROR(check_lease(session_id, holder));
  leases_[session_id].expires_at = unix_now() + ttl_seconds;
  return {};
}

Status MemoryStore::release_compression_lease(const std::string& session_id,
                                              const std::string& holder) {
  std::lock_guard lock(mutex_);
  auto it = leases_.find(session_id);
  if (it != leases_.end() && it->second.holder == holder) leases_.erase(it);
  return {};
}

// ---- Routing ----

Result<std::optional<Json>> MemoryStore::load_route(const std::string& scope,
                                                    const std::string& session_key) {
  std::lock_guard lock(mutex_);
  auto it = routes_.find({scope, session_key});
  if (it == routes_.end()) return std::optional<Json>();
  return std::optional<Json>(it->second);
}

Status MemoryStore::save_route(const std::string& scope, const std::string& session_key,
                               const Json& entry) {
  if (session_key.empty()) return Status::invalid_argument("session_key must not be empty");
  std::lock_guard lock(mutex_);
  routes_[{scope, session_key}] = entry;
  return {};
}

Status MemoryStore::delete_route(const std::string& scope, const std::string& session_key) {
  std::lock_guard lock(mutex_);
  routes_.erase({scope, session_key});
  return {};
}

Result<std::vector<std::pair<std::string, Json>>> MemoryStore::list_routes(
    const std::string& scope) {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, Json>> routes;
  for (const auto& [key, entry] : routes_) {
    if (key.first == scope) routes.emplace_back(key.second, entry);
  }
  return routes;
}

}  // namespace hermes::store
