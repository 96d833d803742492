// hermes/session_store.hpp — where conversations are kept between turns and processes.
//
// A session is one segment of a conversation; compression continues a conversation in a
// child session linked by parent_session_id (its lineage). Messages are appended in
// batches, one transaction each, and read back in the order they were appended.
#pragma once

#include "hermes/export.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes {

// One row of the sessions table.
struct SessionInfo {
  std::string id;
  std::string source = "cli";       // "cli", "api", "cron", "subagent", a platform name...
  std::string model;
  std::string parent_session_id;    // Empty for a root session.
  std::string title;
  std::string system_prompt;
  Json model_config;                // Free-form JSON, or null.
  std::string user_id;
  std::string session_key;          // Lane key of a chat platform, if any.
  double started_at = 0;            // Unix seconds; 0 means "now" when creating.
  double ended_at = 0;              // 0 while the session is live.
  std::string end_reason;           // "compression", "new_session", "user_exit", ...
  int64_t message_count = 0;
  int64_t tool_call_count = 0;
  int64_t api_call_count = 0;
  Usage usage;                      // Token totals of the session.
  double estimated_cost_usd = 0;
  std::string billing_provider;
  std::string billing_base_url;
};

// Usage of one or more model calls, added to a session's totals.
struct UsageDelta {
  Usage usage;
  int64_t api_calls = 0;
  double estimated_cost_usd = 0;
  std::string cost_status;      // "estimated", "unknown", ...
  std::string cost_source;
  std::string billing_provider; // Filled only while the session has none.
  std::string billing_base_url;
  std::string model;            // Filled only while the session has none.
};

struct ListOptions {
  int limit = 50;
  int offset = 0;
  std::string source;        // Only sessions of this source, when set.
  bool roots_only = false;   // Hide compression continuations and sub-agent runs.
};

struct LoadOptions {
  // Also load the compression ancestors, root first.
  bool include_ancestors = false;
  // Refuse (ResourceExhausted) to load more messages than this; 0 disables the guard.
  std::size_t max_messages = 20000;
};

struct SearchOptions {
  int limit = 20;
  int offset = 0;
  std::vector<std::string> roles;            // Only these roles, when set.
  std::vector<std::string> sources;          // Only sessions of these sources, when set.
  std::vector<std::string> exclude_sources;  // Never sessions of these sources.
  bool resolve_roots = false;                // Fill SearchHit::root_session_id.
};

// One row of a full-text search over stored messages.
struct SearchHit {
  std::string session_id;
  int64_t message_id = 0;
  std::string role;
  std::string snippet;      // The matching text, the match marked by >>> and <<<.
  double timestamp = 0;
  double rank = 0;          // Lower is better, as SQLite's bm25().
  std::string tool_name;
  std::string source;
  std::string model;
  std::string root_session_id;  // The lineage root, when resolve_roots was set.
};

// A SessionStore keeps sessions and their messages durably.
//
// Thread-safety: implementations are safe for concurrent use by many Agents in one
// process; the SQLite and PostgreSQL stores are also safe for many processes sharing
// one database.
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

  // The session's live messages in the order they were appended.
  virtual Result<std::vector<Message>> load_messages(const std::string& session_id,
                                                     const LoadOptions& options = {}) = 0;

  // Up to options.limit hits for `query`. Any text is a valid query: operators, quotes
  // and stray punctuation are treated as words, never as syntax errors.
  virtual Result<std::vector<SearchHit>> search(const std::string& query,
                                                const SearchOptions& options = {}) = 0;

  // Adds usage to the session's totals.
  virtual Status record_usage(const std::string& session_id, const UsageDelta& delta) = 0;

  // Stores the system prompt the session was started with.
  virtual Status set_system_prompt(const std::string& session_id, const std::string& prompt) = 0;

  // Sets the title. InvalidArgument when it is longer than 100 characters;
  // AlreadyExists when another session holds it.
  virtual Status set_title(const std::string& session_id, const std::string& title) = 0;

  // --- Lineage and compaction. A store that does not support them returns
  // Unimplemented; the agent then keeps compacted transcripts in memory only. ---

  // The compression tip of `session_id`: following continuation children (sessions
  // created by compression rotation) to the newest one that has messages. A session
  // without continuations is its own tip.
  virtual Result<std::string> resolve_resume_session_id(const std::string& session_id);

  // The session's ancestors and itself, root first (parent_session_id chain).
  virtual Result<std::vector<SessionInfo>> lineage(const std::string& session_id);

  // The highest id among the session's live messages (0 when it has none): taken when a
  // compaction starts, so rows appended while the summary is written are not lost.
  virtual Result<int64_t> active_message_watermark(const std::string& session_id);

  // Rotation, in one transaction: ends `old_session_id` with end_reason "compression",
  // creates `child` (parent_session_id = old_session_id; when the parent has a title the
  // child gets the next "<title> #n"), appends `messages` to it, and copies to it any
  // rows the parent received after `watermark`. FailedPrecondition if `lease_holder` is
  // set and does not hold the session's compression lease. Nothing changes on failure.
  virtual Status rotate_for_compression(const std::string& old_session_id, const SessionInfo& child,
                                        const std::vector<Message>& messages, int64_t watermark,
                                        const std::string& lease_holder);

  // In-place compaction, in one transaction: the live rows become archived (still
  // searchable, not loaded for resume), `messages` become the live transcript, and rows
  // appended after `watermark` are carried over after them. The session id stays.
  virtual Status compact_in_place(const std::string& session_id, const std::vector<Message>& messages,
                                  int64_t watermark, const std::string& lease_holder);

  // The compression lease: at most one holder per session, expiring after `ttl_seconds`
  // unless renewed. Acquire returns false (not an error) when someone else holds a live
  // lease; stale leases (expired, or held by a local process that no longer exists) are
  // taken over. `holder` should contain "pid=<n>".
  virtual Result<bool> acquire_compression_lease(const std::string& session_id,
                                                 const std::string& holder, double ttl_seconds);
  virtual Status renew_compression_lease(const std::string& session_id, const std::string& holder,
                                         double ttl_seconds);
  virtual Status release_compression_lease(const std::string& session_id, const std::string& holder);
};

// Appends the new part of a growing transcript to a store: each call writes the
// messages after the cursor (skipping scaffolding) in one transaction and then advances
// the cursor, so repeating a flush writes nothing twice and a failed flush is retried
// whole by the next one.
//
// Thread-safety: not thread-safe; one writer per transcript.
class HERMES_API TranscriptWriter {
 public:
  TranscriptWriter() = default;
  TranscriptWriter(std::shared_ptr<SessionStore> store, std::string session_id,
                   std::size_t already_stored = 0)
      : store_(std::move(store)), session_id_(std::move(session_id)), cursor_(already_stored) {}

  // Writes transcript[cursor:] and moves the cursor to transcript.size().
  Status flush(const std::vector<Message>& transcript);

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
};

// Options of the SQLite store.
struct SqliteStoreOptions {
  // Maintain the trigram index for CJK and substring search (about 5x the insert cost).
  bool trigram_index = false;
  // Open without writing anything (no schema changes, no appends).
  bool read_only = false;
};

// Opens (creating if needed, mode 0600) the SQLite store at `path`. A file that is not a
// hermes/upstream state database, or whose schema is newer than this library knows,
// fails with DataLoss and is left untouched.
HERMES_API Result<std::shared_ptr<SessionStore>> open_sqlite_store(const std::string& path,
                                                        const SqliteStoreOptions& options = {});

// A store that keeps everything in memory, for tests and ephemeral agents.
HERMES_API std::shared_ptr<SessionStore> make_memory_store();

// A new session id: "YYYYMMDD_HHMMSS_" (local time) plus `hex_digits` random hex digits.
HERMES_API std::string new_session_id(int hex_digits = 6);

}  // namespace hermes
