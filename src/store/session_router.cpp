// The lane state machine: which session the next message of a chat lane continues.
#include "hermes/session_router.hpp"

#include <array>
#include <ctime>
#include <string_view>

#include "safety/log.hpp"
#include "store/message_codec.hpp"

namespace hermes {
namespace {

// Closes after which a later message may reopen the same session.
constexpr std::array<std::string_view, 4> kRecoverableEndReasons = {
    "agent_close", "ws_orphan_reap", "superseded_by_resume", "startup_orphan_reap"};

constexpr double kSecondsPerDay = 86400;

bool is_recoverable(const std::string& end_reason) {
  for (auto reason : kRecoverableEndReasons) {
    if (reason == end_reason) return true;
  }
  return false;
}

// The most recent local `hour:minute` at or before `now`.
double last_daily_boundary(double now, int hour, int minute) {
  const auto whole = static_cast<std::time_t>(now);
  std::tm local{};
  localtime_r(&whole, &local);
  local.tm_hour = hour;
  local.tm_min = minute;
  local.tm_sec = 0;
  local.tm_isdst = -1;
  double boundary = static_cast<double>(std::mktime(&local));
  if (now < boundary) boundary -= kSecondsPerDay;
  return boundary;
}

// The reason the policy resets a lane last used at `updated_at`, or empty.
std::string policy_reset_reason(const ResetPolicy& p, double updated_at, double now) {
  using Mode = ResetPolicy::Mode;
  if ((p.mode == Mode::kIdle || p.mode == Mode::kBoth) &&
      now > updated_at + static_cast<double>(p.idle_minutes) * 60) {
    return "idle";
  }
  if ((p.mode == Mode::kDaily || p.mode == Mode::kBoth) &&
      updated_at < last_daily_boundary(now, p.at_hour, p.at_minute)) {
    return "daily";
  }
  return {};
}

Json source_json(const SessionSource& s) {
  return {{"platform", s.platform},   {"chat_type", s.chat_type}, {"chat_id", s.chat_id},
          {"thread_id", s.thread_id}, {"user_id", s.user_id},     {"user_id_alt", s.user_id_alt},
          {"scope_id", s.scope_id},   {"user_name", s.user_name}, {"chat_name", s.chat_name}};
}

}  // namespace

struct SessionRouter::Impl {
  std::shared_ptr<SessionStore> store;
  SessionRouterOptions options;
  std::mutex mutex;  // One lane decision at a time: no double resets.

  double now() const { return options.clock ? options.clock() : store::unix_now(); }

  bool busy(const std::string& key) const {
    return options.has_background_work && options.has_background_work(key);
  }

  // The store's lane routes, or nullptr with the error to answer in `why`.
  SessionRoutes* routes(Status& why) const {
    SessionRoutes* r = store->routes_capability();
    if (r == nullptr) {
      why = Status::unimplemented(
          "session router: this session store cannot keep lane routes (no routes capability)");
    }
    return r;
  }

  Result<std::optional<SessionEntry>> load(const std::string& key) {
    Status why;
    SessionRoutes* r = routes(why);
    if (r == nullptr) return why;
    auto json = r->load_route(options.scope, key);
    if (!json.ok()) return json.status();
    if (!json->has_value()) return std::optional<SessionEntry>();
    auto entry = session_entry_from_json(**json);
    if (!entry.ok()) {
      HERMES_LOG_WARN("lane {}: unreadable routing entry dropped: {}", key,
                      entry.status().message());
      return std::optional<SessionEntry>();
    }
    return std::optional<SessionEntry>(std::move(*entry));
  }

  Status save(const SessionEntry& entry) {
    Status why;
    SessionRoutes* r = routes(why);
    if (r == nullptr) return why;
    return r->save_route(options.scope, entry.session_key, session_entry_to_json(entry));
  }

  // A new session row for the lane; a reset child of `previous` when there is one.
  Result<std::string> create_session(const SessionSource& source, const std::string& key,
                                     const std::string& previous) {
    SessionInfo info;
    info.id = new_session_id(8);
    info.source = source.platform.empty() ? "gateway" : source.platform;
    info.user_id = source.user_id_alt.empty() ? source.user_id : source.user_id_alt;
    info.session_key = key;
    if (!previous.empty() && store->get_session(previous).ok()) {
      info.parent_session_id = previous;
      info.model_config = Json{{"_reset_from", previous}};
    }
    HERMES_RETURN_IF_ERROR(store->create_session(info));
    return info.id;
  }

  SessionEntry fresh_entry(const SessionSource& source, const std::string& key,
                           const std::string& session_id) {
    SessionEntry entry;
    entry.session_key = key;
    entry.session_id = session_id;
    entry.created_at = entry.updated_at = now();
    entry.platform = source.platform;
    entry.chat_type = source.chat_type.empty() ? "dm" : source.chat_type;
    entry.display_name = source.chat_name.empty() ? source.user_name : source.chat_name;
    entry.origin = source_json(source);
    entry.metadata = Json::object();
    return entry;
  }

  // Ends the lane's session with `reason` and starts a new one.
  Result<SessionEntry> reset(const SessionSource& source, const SessionEntry& old,
                             const std::string& reason, bool requested) {
    if (Status s = store->end_session(old.session_id, reason);
        !s.ok() && s.code() != StatusCode::kNotFound) {
      return s;
    }
    auto id = create_session(source, old.session_key, old.session_id);
    if (!id.ok()) return id.status();
    SessionEntry entry = fresh_entry(source, old.session_key, *id);
    entry.prev_session_id = old.session_id;
    entry.metadata = old.metadata.is_null() ? Json::object() : old.metadata;
    if (requested) {
      entry.is_fresh_reset = true;
    } else {
      entry.was_auto_reset = true;
      entry.auto_reset_reason = reason;
      entry.reset_had_activity = old.last_prompt_tokens > 0;
    }
    HERMES_RETURN_IF_ERROR(save(entry));
    return entry;
  }

  // Step 0: the entry must point at a live session, the tip of its compressions.
  // nullopt when the session is gone for good and the lane starts over. A store without
  // the compaction capability has no tips to follow and no sessions to reopen.
  Result<std::optional<SessionEntry>> heal(SessionEntry entry) {
    SessionCompaction* compaction = store->compaction_capability();
    if (compaction != nullptr) {
      auto tip = compaction->compression_tip(entry.session_id);
      if (!tip.ok() && tip.status().code() != StatusCode::kNotFound) return tip.status();
      if (tip.ok()) entry.session_id = *tip;
    }
    auto row = store->get_session(entry.session_id);
    if (!row.ok()) {
      if (row.status().code() == StatusCode::kNotFound) return std::optional<SessionEntry>();
      return row.status();
    }
    if (row->ended_at == 0) return std::optional<SessionEntry>(std::move(entry));
    if (compaction != nullptr && is_recoverable(row->end_reason) &&
        compaction->reopen_session(entry.session_id).ok()) {
      return std::optional<SessionEntry>(std::move(entry));
    }
    return std::optional<SessionEntry>();
  }

  Result<SessionEntry> keep(SessionEntry entry) {
    entry.updated_at = now();
    HERMES_RETURN_IF_ERROR(save(entry));
    return entry;
  }

  Result<SessionEntry> start(const SessionSource& source, const std::string& key) {
    auto id = create_session(source, key, "");
    if (!id.ok()) return id.status();
    SessionEntry entry = fresh_entry(source, key, *id);
    HERMES_RETURN_IF_ERROR(save(entry));
    return entry;
  }

  Result<SessionEntry> decide(const SessionSource& source, SessionEntry entry) {
    const double t = now();
    if (entry.suspended) return reset(source, entry, "suspended", false);
    const std::string policy = busy(entry.session_key)
                                   ? ""
                                   : policy_reset_reason(options.reset_policy, entry.updated_at, t);
    if (entry.resume_pending) {
      if (!policy.empty()) return reset(source, entry, policy, false);
      const double marked =
          entry.last_resume_marked_at > 0 ? entry.last_resume_marked_at : entry.updated_at;
      if (t - marked > options.resume_freshness_seconds) {
        return reset(source, entry, "resume_pending_expired", false);
      }
      return keep(std::move(entry));
    }
    if (!policy.empty()) return reset(source, entry, policy, false);
    return keep(std::move(entry));
  }

  Status update(const std::string& key, const std::function<void(SessionEntry&)>& change) {
    std::lock_guard lock(mutex);
    auto entry = load(key);
    if (!entry.ok()) return entry.status();
    if (!entry->has_value()) return Status::not_found("no routing entry for lane '" + key + "'");
    change(**entry);
    return save(**entry);
  }
};

SessionRouter::SessionRouter(std::shared_ptr<SessionStore> store, SessionRouterOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->store = std::move(store);
  impl_->options = std::move(options);
}

SessionRouter::~SessionRouter() = default;

Result<SessionEntry> SessionRouter::route(const SessionSource& source, bool force_new) {
  if (impl_->store == nullptr) return Status::failed_precondition("the router has no store");
  const std::string key = build_session_key(source, impl_->options.keys);
  std::lock_guard lock(impl_->mutex);
  auto stored = impl_->load(key);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return impl_->start(source, key);
  auto healed = impl_->heal(std::move(**stored));
  if (!healed.ok()) return healed.status();
  if (!healed->has_value()) return impl_->start(source, key);
  if (force_new) return impl_->reset(source, **healed, "session_reset", true);
  return impl_->decide(source, std::move(**healed));
}

Result<std::optional<SessionEntry>> SessionRouter::find(const std::string& session_key) {
  std::lock_guard lock(impl_->mutex);
  return impl_->load(session_key);
}

Status SessionRouter::suspend(const std::string& key) {
  return impl_->update(key, [](SessionEntry& e) { e.suspended = true; });
}

Status SessionRouter::mark_resume_pending(const std::string& key, const std::string& reason) {
  const double t = impl_->now();
  return impl_->update(key, [&](SessionEntry& e) {
    if (e.suspended) return;  // A stopped lane is never re-armed.
    e.resume_pending = true;
    e.resume_reason = reason;
    e.last_resume_marked_at = t;
  });
}

Status SessionRouter::clear_resume_pending(const std::string& key) {
  return impl_->update(key, [](SessionEntry& e) {
    e.resume_pending = false;
    e.resume_reason.clear();
  });
}

Status SessionRouter::consume_reset_notice(const std::string& key) {
  return impl_->update(key, [](SessionEntry& e) {
    e.was_auto_reset = false;
    e.is_fresh_reset = false;
  });
}

Status SessionRouter::set_last_prompt_tokens(const std::string& key, int64_t tokens) {
  return impl_->update(key, [&](SessionEntry& e) { e.last_prompt_tokens = tokens; });
}

Status SessionRouter::mark_expiry_finalized(const std::string& key) {
  return impl_->update(key, [](SessionEntry& e) { e.expiry_finalized = true; });
}

Result<int> SessionRouter::prune(double max_age_days) {
  if (max_age_days <= 0) return 0;
  std::lock_guard lock(impl_->mutex);
  Status why;
  SessionRoutes* lanes = impl_->routes(why);
  if (lanes == nullptr) return why;
  auto routes = lanes->list_routes(impl_->options.scope);
  if (!routes.ok()) return routes.status();
  const double cutoff = impl_->now() - max_age_days * kSecondsPerDay;
  int dropped = 0;
  for (const auto& [key, json] : *routes) {
    auto entry = session_entry_from_json(json);
    if (!entry.ok() || entry->suspended || impl_->busy(key) || entry->updated_at >= cutoff)
      continue;
    HERMES_RETURN_IF_ERROR(lanes->delete_route(impl_->options.scope, key));
    ++dropped;
  }
  return dropped;
}

}  // namespace hermes
