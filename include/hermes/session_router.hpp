// hermes/session_router.hpp — chat lanes: which session a message from a chat platform
// continues.
//
// Every chat, thread or participant of a platform is a lane with a deterministic key
// ("agent:main:telegram:dm:12345"). The router maps each key to the lane's current session
// through a SessionEntry, and decides per message whether the lane continues that session
// or starts a fresh one (after /stop, an expired auto-continue, or an idle/daily reset
// policy). Entries are kept in the session store (its SessionRoutes capability), so every
// process sharing the store routes a lane the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/session_store.hpp"
#include "hermes/status.hpp"

namespace hermes {

// Where a message came from.
struct SessionSource {
  std::string platform;          // "telegram", "discord", "slack", ...
  std::string chat_type = "dm";  // "dm", "group", "channel" or "thread".
  std::string chat_id;
  std::string thread_id;
  std::string user_id;
  std::string user_id_alt;  // A stabler alternative id of the sender; preferred when set.
  std::string scope_id;     // Slack's workspace/scope id, when the platform has one.
  std::string user_name;
  std::string chat_name;
};

// How lanes are cut.
struct SessionKeyOptions {
  std::string profile;                    // "" or "default" for the default profile.
  bool group_sessions_per_user = true;    // Plain groups get one lane per participant.
  bool thread_sessions_per_user = false;  // Threads are shared by default.
};

// The lane key of `source`: "agent:<profile>:<platform>:<chat_type>[:<scope>][:<chat_id>]"
// followed by the thread and participant parts. The default profile's namespace is
// "agent:main" (a profile literally named "main" becomes "agent:main~"). In a DM the
// participant is added only when there is no chat id (participant, then thread); in
// groups, channels and threads the participant is added when the lane is per user
// (thread, then participant).
HERMES_API std::string build_session_key(const SessionSource& source,
                                         const SessionKeyOptions& options = {});

// A lane's routing state. Times are Unix seconds.
struct SessionEntry {
  std::string session_key;
  std::string session_id;
  double created_at = 0;
  double updated_at = 0;
  std::string platform;
  std::string chat_type = "dm";
  std::string display_name;
  Json origin;    // The SessionSource of the lane, as JSON.
  Json metadata;  // Free-form, kept as given.
  int64_t last_prompt_tokens = 0;

  // /stop or a stuck loop: the next message always starts a fresh session.
  bool suspended = false;
  // A drain timeout or crash interrupted a turn: the next message continues the same
  // session (the agent auto-continues) if it comes within the freshness window.
  bool resume_pending = false;
  std::string resume_reason;  // "restart_timeout", "shutdown_timeout", "restart_interrupted".
  double last_resume_marked_at = 0;
  // The lane was reset automatically: the first turn tells the user once.
  bool was_auto_reset = false;
  std::string auto_reset_reason;  // "suspended", "idle", "daily", "resume_pending_expired".
  bool reset_had_activity = false;
  std::string prev_session_id;
  // The user asked for a new session (/new, /reset): channel skills are re-injected.
  bool is_fresh_reset = false;
  // The expiry watcher finalised this lane; it must not do so twice.
  bool expiry_finalized = false;
};

// The JSON form of an entry (the fields above by name, times as local ISO-8601 text as
// upstream's sessions.json has them). Reading accepts numbers for times too, and the
// legacy "memory_flushed" for expiry_finalized.
HERMES_API Json session_entry_to_json(const SessionEntry& entry);
HERMES_API Result<SessionEntry> session_entry_from_json(const Json& json);

// When a lane starts over by itself. Off by default.
struct ResetPolicy {
  enum class Mode { kNone, kIdle, kDaily, kBoth };
  Mode mode = Mode::kNone;
  int idle_minutes = 1440;  // Idle: reset after this long without a message.
  int at_hour = 4;          // Daily: reset the first time a lane is used after this local time.
  int at_minute = 0;
};

struct SessionRouterOptions {
  std::string scope;  // Separates the entries of installations sharing a store.
  SessionKeyOptions keys;
  ResetPolicy reset_policy;
  // A resume_pending lane auto-continues only this long after it was marked.
  double resume_freshness_seconds = 3600;
  // True while a lane has live background work (processes, delegations): such a lane is
  // never reset by the policy nor pruned. Optional.
  std::function<bool(const std::string& session_key)> has_background_work;
  // The clock, Unix seconds; for tests. Optional.
  std::function<double()> clock;
};

// Maps lanes to sessions.
//
// Thread-safety: safe for concurrent use; calls for one lane are serialised (two messages
// arriving together never both start a fresh session). Processes sharing a store see each
// other's entries; concurrent resets of one lane by two processes may both happen (the
// last entry written wins), as upstream's gateway allows.
class HERMES_API SessionRouter {
 public:
  // `store` must offer the SessionRoutes capability (the SQLite, PostgreSQL and memory
  // stores do); without it every lane operation answers Unimplemented. With the
  // SessionCompaction capability a lane follows its session's compressions and reopens a
  // recoverably closed session.
  explicit SessionRouter(std::shared_ptr<SessionStore> store, SessionRouterOptions options = {});
  ~SessionRouter();
  SessionRouter(const SessionRouter&) = delete;
  SessionRouter& operator=(const SessionRouter&) = delete;

  // The entry for a message arriving now from `source`, applying in order: heal the id to
  // its compression tip (and recover a session closed meanwhile); suspended -> reset;
  // resume_pending -> keep when fresh, else reset; the reset policy; else keep. A reset
  // ends the old session with the reason and starts a new one (a reset child of it).
  // `force_new` (/new, /reset) always starts a fresh session with is_fresh_reset.
  Result<SessionEntry> route(const SessionSource& source, bool force_new = false);

  // The stored entry of a lane, or nullopt.
  Result<std::optional<SessionEntry>> find(const std::string& session_key);

  // Flag updates on an existing lane; NotFound when the lane has no entry.
  Status suspend(const std::string& session_key);
  Status mark_resume_pending(const std::string& session_key, const std::string& reason);
  Status clear_resume_pending(const std::string& session_key);
  // Clears was_auto_reset and is_fresh_reset once the first turn has told the user.
  Status consume_reset_notice(const std::string& session_key);
  Status set_last_prompt_tokens(const std::string& session_key, int64_t tokens);
  Status mark_expiry_finalized(const std::string& session_key);

  // Drops entries not used for `max_age_days` (transcripts stay), except suspended lanes
  // and lanes with background work. Returns how many were dropped; <= 0 days disables.
  Result<int> prune(double max_age_days);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
