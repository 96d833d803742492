// hermes/session_store.hpp — where conversations are kept between turns and processes.
//
// A session is one segment of a conversation; compression continues a conversation in a
// child session linked by parent_session_id (its lineage). Messages are appended in
// batches, one transaction each, and read back in the order they were appended.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes {

// One row of the sessions table.
struct SessionInfo {
  std::string id;
  std::string source = "cli";  // "cli", "api", "cron", "subagent", a platform name...
  std::string model;
  std::string parent_session_id;  // Empty for a root session.
  std::string title;
  std::string system_prompt;
  Json model_config;  // Free-form JSON, or null.
  std::string user_id;
  std::string session_key;  // Lane key of a chat platform, if any.
  double started_at = 0;    // Unix seconds; 0 means "now" when creating.
  double ended_at = 0;      // 0 while the session is live.
  std::string end_reason;   // "compression", "new_session", "user_exit", ...
  int64_t message_count = 0;
  int64_t tool_call_count = 0;
  int64_t api_call_count = 0;
  Usage usage;  // Token totals of the session.
  double estimated_cost_usd = 0;
  std::string billing_provider;
  std::string billing_base_url;
};

// Usage of one or more model calls, added to a session's totals.
struct UsageDelta {
  Usage usage;
  int64_t api_calls = 0;
  double estimated_cost_usd = 0;
  std::string cost_status;  // "estimated", "unknown", ...
  std::string cost_source;
  std::string billing_provider;  // Filled only while the session has none.
  std::string billing_base_url;
  std::string model;  // Filled only while the session has none.
};

struct ListOptions {
  int limit = 50;
  int offset = 0;
  std::string source;       // Only sessions of this source, when set.
  bool roots_only = false;  // Hide compression continuations and sub-agent runs.
};

struct LoadOptions {
  // Also load the compression ancestors, root first.
  bool include_ancestors = false;
  // Refuse (ResourceExhausted) to load more messages than this; 0 disables the guard.
  std::size_t max_messages = 20000;
};

// The order of search hits.
enum class SearchOrder {
  kRelevance,  // Best match first (bm25 rank; newest first for substring scans).
  kNewest,     // Newest message first, then by relevance.
  kOldest,     // Oldest message first, then by relevance.
};

struct SearchOptions {
  int limit = 20;
  int offset = 0;
  std::vector<std::string> roles;            // Only these roles, when set.
  std::vector<std::string> sources;          // Only sessions of these sources, when set.
  std::vector<std::string> exclude_sources;  // Never sessions of these sources.
  SearchOrder order = SearchOrder::kRelevance;
  bool resolve_roots = false;    // Fill SearchHit::root_session_id.
  bool include_context = false;  // Fill SearchHit::context.
};

// A message next to a search hit, cut short.
struct SearchContextMessage {
  int64_t message_id = 0;
  std::string role;
  std::string content;  // At most the first 200 characters.
};

// One row of a full-text search over stored messages.
struct SearchHit {
  std::string session_id;
  int64_t message_id = 0;
  std::string role;
  std::string snippet;  // The matching text, the match marked by >>> and <<<.
  double timestamp = 0;
  double rank = 0;  // Lower is better, as SQLite's bm25().
  std::string tool_name;
  std::string source;
  std::string model;
  double session_started = 0;
  // Archived by an in-place compaction: searchable, but no longer in the live transcript.
  bool archived = false;
  std::string root_session_id;  // The lineage root, when resolve_roots was set.
  // The messages just before and just after the hit in its session (one or two), when
  // include_context was set.
  std::vector<SearchContextMessage> context;
};

// A stored message with its row id (the canonical order of a transcript).
struct StoredMessage {
  int64_t id = 0;
  Message message;
  bool archived = false;  // Archived by an in-place compaction.
};

struct ReadOptions {
  bool include_archived = true;  // Also rows archived by in-place compaction.
  int64_t after_id = 0;          // Only rows with a larger id.
  std::size_t limit = 0;         // At most this many rows; 0 for all.
};

class SessionSearch;
class SessionCompaction;
class SessionRoutes;

// A SessionStore keeps sessions and their messages durably: the core every backend
// implements, enough for an agent to run turns, persist them and resume a session by id.
// What more a backend can do it offers as capabilities (SessionSearch, SessionCompaction,
// SessionRoutes below), each obtained through an accessor that answers nullptr when the
// store lacks it; callers ask for the capability and say so when it is missing. A backend
// usually derives from SessionStore and the capabilities it implements, and answers `this`
// from their accessors.
//
// Thread-safety: implementations are safe for concurrent use by many Agents in one
// process; the SQLite and PostgreSQL stores are also safe for many processes sharing
// one database. The SQLite, PostgreSQL and memory stores offer every capability.
class HERMES_API SessionStore {
 public:
  virtual ~SessionStore() = default;

  // Creates the session row. An existing row with the same id is left unchanged, so
  // calling this again is harmless.
  virtual Status create_session(const SessionInfo& info) = 0;

  // Marks the session ended. The first end wins: an already ended session keeps its
  // reason.
  virtual Status end_session(const std::string& session_id, const std::string& end_reason) = 0;

  // NotFound if there is no such session.
  virtual Result<SessionInfo> get_session(const std::string& session_id) = 0;

  // Sessions, most recently started first.
  virtual Result<std::vector<SessionInfo>> list_sessions(const ListOptions& options) = 0;

  // Deletes the session and its messages. Children keep existing, orphaned.
  virtual Status delete_session(const std::string& session_id) = 0;

  // Appends `messages` to the session in one transaction: all of them or none. Returns
  // the ids given to the new rows, in order. Scaffolding messages are rejected with
  // InvalidArgument (they must never be stored).
  virtual Result<std::vector<int64_t>> append_messages(const std::string& session_id,
                                                       const std::vector<Message>& messages) = 0;

  // The session's live messages in the order they were appended, as a conversation to
  // resume: rows that were persisted by a background memory/skill review (the review
  // prompt and the reply to it) are left out, and an assistant tool-call message whose
  // whole text is a bare "[tool_name]" marker comes back with empty content.
  virtual Result<std::vector<Message>> load_messages(const std::string& session_id,
                                                     const LoadOptions& options = {}) = 0;

  // Adds usage to the session's totals.
  virtual Status record_usage(const std::string& session_id, const UsageDelta& delta) = 0;

  // Appends `messages` and adds each of `usage` to the session's totals in one
  // transaction: all of it or none, one commit. This is what an agent writes at each
  // point a step must be durable (see TranscriptWriter). Returns the ids given to the new
  // rows, in order; either list may be empty. The SQLite, PostgreSQL and memory stores do
  // it in one transaction. This default, for other backends, calls append_messages and
  // then record_usage: when usage fails after the messages went in, the usage is dropped
  // (logged) and the call succeeds, so a retry never stores the messages twice.
  virtual Result<std::vector<int64_t>> append_step(const std::string& session_id,
                                                   const std::vector<Message>& messages,
                                                   const std::vector<UsageDelta>& usage);

  // Stores the system prompt the session was started with.
  virtual Status set_system_prompt(const std::string& session_id, const std::string& prompt) = 0;

  // Sets the title. InvalidArgument when it is longer than 100 characters;
  // AlreadyExists when another session holds it.
  virtual Status set_title(const std::string& session_id, const std::string& title) = 0;

  // --- Capabilities: nullptr when the store does not offer one. The pointer stays valid
  // as long as the store. ---

  // Full-text search and stored rows with their ids.
  virtual SessionSearch* search_capability() { return nullptr; }
  // Compaction commits, compression lineage, resume resolution and compression leases.
  virtual SessionCompaction* compaction_capability() { return nullptr; }
  // Chat-lane routing entries.
  virtual SessionRoutes* routes_capability() { return nullptr; }
};

// Search over stored messages, and the stored rows themselves.
//
// A backend implements both calls. Without this capability the session_search tool
// answers the model an error saying the store cannot search; export_session_jsonl and the
// search calls of the C API, the Python binding and the example CLI fail with
// Unimplemented; listing and resuming sessions work as before.
class HERMES_API SessionSearch {
 public:
  virtual ~SessionSearch() = default;

  // Up to options.limit hits for `query`. Any text is a valid query: operators, quotes
  // and stray punctuation are treated as words, never as syntax errors.
  virtual Result<std::vector<SearchHit>> search(const std::string& query,
                                                const SearchOptions& options = {}) = 0;

  // The stored rows of the session with their ids, in order (no post-load filtering):
  // what a transcript viewer or the session_search tool reads.
  virtual Result<std::vector<StoredMessage>> read_messages(const std::string& session_id,
                                                           const ReadOptions& options = {}) = 0;
};

// Durable compaction: the commits of a compaction (rotation to a child session, or in
// place), the compression lineage they create, and the lease that keeps two processes
// from compacting one session at once.
//
// A backend implements every call; all of them share the lineage rules below. Without
// this capability an agent still compacts when the context fills, but the compacted
// transcript lives in memory only (the store keeps the full transcript, and later
// messages are appended after it); the agent says so once through Callbacks::on_status
// with kind "store_cannot_compact", and Agent::compress says so in its note. Compactions
// are then not guarded by a lease, a session resumes under the id it is named by, the
// session router does not follow or reopen sessions, and a TranscriptWriter does not
// follow a rotation made elsewhere.
class HERMES_API SessionCompaction {
 public:
  virtual ~SessionCompaction() = default;

  // Clears the end of a session so it can take messages again (a recoverable close).
  // FailedPrecondition for a session ended by compression: its conversation continues in
  // the compression child.
  virtual Status reopen_session(const std::string& session_id) = 0;

  // The compression tip of `session_id`: the end of its chain of compression
  // continuations, preferring at each step a child itself ended by compression, then a
  // live child, then the most recently started. A session without continuations is its
  // own tip.
  virtual Result<std::string> compression_tip(const std::string& session_id) = 0;

  // The session to resume when the user names `session_id`: its compression tip, then
  // forward through continuation children to the deepest one that has messages (the
  // input itself when none has).
  virtual Result<std::string> resolve_resume_session_id(const std::string& session_id) = 0;

  // The session's ancestors and itself, root first (parent_session_id chain).
  virtual Result<std::vector<SessionInfo>> lineage(const std::string& session_id) = 0;

  // The highest id among the session's live messages (0 when it has none): taken when a
  // compaction starts, so rows appended while the summary is written are not lost.
  virtual Result<int64_t> active_message_watermark(const std::string& session_id) = 0;

  // Rotation, in one transaction: ends `old_session_id` with end_reason "compression";
  // creates `child` with parent_session_id = old_session_id (model, user, lane key,
  // model_config, system prompt and billing route default to the parent's; when the
  // parent has a title and the child none, the child gets the next "<title> #n"); appends
  // `messages` to it; then copies after them the parent's live rows with an id above
  // `watermark` (they arrived while the summary was written). FailedPrecondition when the
  // parent is already ended, or when `lease_holder` is set and no longer holds the
  // parent's compression lease; AlreadyExists when the child id is taken. Nothing
  // changes on failure.
  virtual Status rotate_for_compression(const std::string& old_session_id, const SessionInfo& child,
                                        const std::vector<Message>& messages, int64_t watermark,
                                        const std::string& lease_holder) = 0;

  // In-place compaction, in one transaction: the live rows up to `watermark` become
  // archived (still searchable, never loaded for resume), `messages` become the live
  // transcript, and live rows above `watermark` are carried over after them with new ids.
  // Originals that now have a verbatim live copy (the carried-over rows, and the trailing
  // originals that `messages` repeats unchanged) are taken out of search, so a search
  // never finds the same message twice. The counters are recomputed; the id stays.
  // FailedPrecondition as for rotation when the lease was lost or the session is closed
  // by compression.
  virtual Status compact_in_place(const std::string& session_id,
                                  const std::vector<Message>& messages, int64_t watermark,
                                  const std::string& lease_holder) = 0;

  // The compression lease: at most one holder per session, expiring after `ttl_seconds`
  // unless renewed. Acquire returns false (not an error) when someone else holds a live
  // lease, and true when the caller holds it (re-acquiring extends it); stale leases
  // (expired, or held by a process of this host that no longer exists, see
  // compression_lease_holder()) are taken over. Renew extends the caller's lease and fails
  // with FailedPrecondition when the lease was lost; release removes it if the caller
  // still holds it.
  virtual Result<bool> acquire_compression_lease(const std::string& session_id,
                                                 const std::string& holder, double ttl_seconds) = 0;
  virtual Status renew_compression_lease(const std::string& session_id, const std::string& holder,
                                         double ttl_seconds) = 0;
  virtual Status release_compression_lease(const std::string& session_id,
                                           const std::string& holder) = 0;
};

// Chat-lane routing entries (see hermes/session_router.hpp): one JSON entry per lane key,
// within a scope (an installation, a profile).
//
// A backend implements all four calls. Without this capability a SessionRouter answers
// every lane operation with Unimplemented; nothing else uses routes.
class HERMES_API SessionRoutes {
 public:
  virtual ~SessionRoutes() = default;

  // The entry stored for `session_key`, or nullopt.
  virtual Result<std::optional<Json>> load_route(const std::string& scope,
                                                 const std::string& session_key) = 0;
  // Stores (replacing) the entry for `session_key`.
  virtual Status save_route(const std::string& scope, const std::string& session_key,
                            const Json& entry) = 0;
  // Removes the entry; removing a missing entry is not an error.
  virtual Status delete_route(const std::string& scope, const std::string& session_key) = 0;
  // Every entry of the scope as (session_key, entry), ordered by key.
  virtual Result<std::vector<std::pair<std::string, Json>>> list_routes(
      const std::string& scope) = 0;
};

// A compression lease holder name for this process: "host=<hostname>:pid=<pid>:<random>".
// Leases whose holder names this host and a pid that no longer runs are taken over.
HERMES_API std::string compression_lease_holder();

// Writes the session as JSON Lines: a first line {"type":"session", ...the session row}
// then one {"type":"message","id":...,"message":{...}} line per stored row, archived rows
// included (flagged "archived":true). With `include_ancestors`, the compression
// ancestors come first, root first, each with its own session line. ResourceExhausted
// past `max_messages` rows in all (0 disables the guard).
HERMES_API Result<std::string> export_session_jsonl(SessionStore& store,
                                                    const std::string& session_id,
                                                    bool include_ancestors = false,
                                                    std::size_t max_messages = 20000);

// Appends the new part of a growing transcript to a store: each call writes the
// messages after the cursor (skipping scaffolding), with the usage added since the last
// flush, in one transaction (SessionStore::append_step) and then advances the cursor, so
// repeating a flush writes nothing twice and a failed flush is retried whole by the next
// one. A flush is a commit, and with the SQLite store's Durability::kFull an fsync: the
// caller flushes only where the conversation must be durable (an agent: the user message
// before the first model call, a step's tool calls before they run, a step's results and
// answer once it ends), and between flushes lets messages and usage gather. When the
// session was closed by compression elsewhere (another process rotated it), the writer
// adopts the live compression tip and writes there, once; session_id() then names the
// tip.
//
// Thread-safety: not thread-safe; one writer per transcript.
class HERMES_API TranscriptWriter {
 public:
  TranscriptWriter() = default;
  TranscriptWriter(std::shared_ptr<SessionStore> store, std::string session_id,
                   std::size_t already_stored = 0)
      : store_(std::move(store)), session_id_(std::move(session_id)), cursor_(already_stored) {}

  // Writes transcript[cursor:] and the pending usage, and moves the cursor to
  // transcript.size(). Writes nothing (no transaction) when neither has anything new.
  Status flush(const std::vector<Message>& transcript);

  // Adds `delta` to the session's totals with the next flush, in its transaction. Pending
  // usage follows the writer to the session reset() points it at.
  void add_usage(UsageDelta delta) {
    if (store_ != nullptr) usage_.push_back(std::move(delta));
  }

  // Points the writer at another session (compression rotation, /new), with `cursor`
  // messages of the transcript counting as already stored there.
  void reset(std::string session_id, std::size_t cursor) {
    session_id_ = std::move(session_id);
    cursor_ = cursor;
  }

  const std::string& session_id() const { return session_id_; }
  std::size_t cursor() const { return cursor_; }
  bool enabled() const { return store_ != nullptr; }

 private:
  std::shared_ptr<SessionStore> store_;
  std::string session_id_;
  std::size_t cursor_ = 0;
  std::vector<UsageDelta> usage_;  // Added since the last successful flush.
};

// When a commit of the SQLite store is on disk. Both are safe against a crash of the
// process (a kill, an abort): a commit that returned is never lost and the file is never
// left damaged. They differ on a power loss or an operating-system crash.
enum class Durability {
  // Every commit waits for the disk (fsync; WAL with PRAGMA synchronous=FULL): a commit
  // that returned survives a power loss. The default, as upstream Hermes runs.
  kFull,
  // Commits do not wait for the disk (WAL with PRAGMA synchronous=NORMAL): the write-ahead
  // log is synced at checkpoints only, so a power loss may take the last commits back
  // (whole transactions, never part of one; the file stays consistent). Several times
  // cheaper per commit on a disk that syncs slowly. On Apple platforms, whose fsync does
  // not order writes, the store keeps kFull (as upstream does) and logs why.
  kNormal,
};

// "full", "normal".
HERMES_API std::string_view durability_name(Durability durability);
// The durability of that name (case-insensitive), or nullopt.
HERMES_API std::optional<Durability> durability_from_name(std::string_view name);

// Options of the SQLite store.
struct SqliteStoreOptions {
  // Maintain the trigram index for CJK and substring search (about 5x the insert cost).
  bool trigram_index = false;
  // Open without writing anything (no schema changes, no appends).
  bool read_only = false;
  // Read-only connections that reads borrow instead of waiting for the writer, used
  // once the file is confirmed to be in WAL mode; 0 makes every read use the writer.
  int read_connections = 4;
  // When a commit is on disk (see Durability). A setting of this connection, not of the
  // file: processes sharing one database may choose differently.
  Durability durability = Durability::kFull;
};

// Opens (creating if needed, mode 0600) the SQLite store at `path`. A file that is not a
// hermes/upstream state database, or whose schema is newer than this library knows,
// fails with DataLoss and is left untouched.
HERMES_API Result<std::shared_ptr<SessionStore>> open_sqlite_store(
    const std::string& path, const SqliteStoreOptions& options = {});

// A store that keeps everything in memory, for tests and ephemeral agents.
HERMES_API std::shared_ptr<SessionStore> make_memory_store();

// A new session id: "YYYYMMDD_HHMMSS_" (local time) plus `hex_digits` random hex digits.
HERMES_API std::string new_session_id(int hex_digits = 6);

}  // namespace hermes
