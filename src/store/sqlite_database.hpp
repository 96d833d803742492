// The write protocol of the state database: one writer connection per store, every write
// one BEGIN IMMEDIATE transaction replayed whole while another process holds the lock.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "hermes/session_store.hpp"
#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"
#include "store/sqlite_read_pool.hpp"

namespace hermes::store {

// How long a write keeps retrying while another process holds the write lock.
inline constexpr std::chrono::milliseconds kDefaultWritePatience{20'000};
// Transcript appends are worth waiting longer for: losing them loses the conversation.
inline constexpr std::chrono::milliseconds kTranscriptWritePatience{60'000};

// A transaction body. It may run more than once (the whole transaction is replayed after
// a busy error), so it must not keep state across runs.
using TransactionBody = std::function<Status(Connection&)>;

// The connection a store reads and writes through.
//
// Thread-safety: safe to use from many threads; write transactions are serialised by a
// mutex. Once the file is in WAL mode, reads run on a pool of read-only connections and
// do not wait for the writer; otherwise they share the writer connection and its mutex.
class SqliteDatabase {
 public:
  // Opens the connection at `path` and applies the connection settings (busy timeout,
  // journal mode, foreign keys). Nothing is written to the file before the caller's first
  // write: the journal mode is set by enable_write_ahead_log().
  static Result<std::unique_ptr<SqliteDatabase>> open(const std::string& path, bool read_only);

  // Switches the file to WAL, or to DELETE where WAL cannot work (network file systems).
  // Call only once the file is known to be a state database. When WAL is confirmed and
  // `read_connections` > 0, reads move to a pool of that many read-only connections.
  // `durability` sets when the writer's commits reach the disk (PRAGMA synchronous, a
  // setting of this connection); kNormal applies in WAL mode only, since with the DELETE
  // journal a power loss at the wrong moment could damage the file rather than lose a
  // commit.
  Status enable_write_ahead_log(int read_connections = 0,
                                Durability durability = Durability::kFull);

  // Runs `body` inside BEGIN IMMEDIATE ... COMMIT, replaying the whole transaction with a
  // random back-off while the database is busy, for at most `patience`.
  Status write(const TransactionBody& body,
               std::chrono::milliseconds patience = kDefaultWritePatience);

  // Runs `body` inside a read transaction, so multi-statement reads see one snapshot.
  Status read(const TransactionBody& body);

  // Runs `body` with the connection outside any transaction (schema inspection, pragmas).
  Status with_connection(const TransactionBody& body);

  // Runs `task` on the writer connection, outside any transaction and under the writer's
  // mutex, after every `every`-th successful write (maintenance that must not slow each
  // write). Set before concurrent use; the task handles its own failures.
  void set_periodic_task(uint64_t every, std::function<void(Connection&)> task);

  bool read_only() const { return read_only_; }
  const std::string& path() const { return path_; }

 private:
  SqliteDatabase(std::string path, std::unique_ptr<Connection> connection, bool read_only)
      : path_(std::move(path)), connection_(std::move(connection)), read_only_(read_only) {}

  // One attempt on `connection`: begin, body, commit; rolls back on any failure.
  static Status attempt(Connection& connection, const char* begin_sql, const TransactionBody& body);
  // A read on a pooled connection; nullopt when the pool has none to lend.
  std::optional<Status> pooled_read(const TransactionBody& body);
  Status run_with_patience(const char* begin_sql, const TransactionBody& body,
                           std::chrono::milliseconds patience, bool is_write);
  void after_successful_write();

  std::string path_;
  std::mutex mutex_;
  std::unique_ptr<Connection> connection_;  // Guarded by mutex_.
  uint64_t successful_writes_ = 0;          // Guarded by mutex_.
  uint64_t periodic_every_ = 0;             // Set once, before concurrent use.
  std::function<void(Connection&)> periodic_task_;
  bool read_only_;
  std::unique_ptr<SqliteReadPool> read_pool_;  // Set once, before concurrent use.
};

}  // namespace hermes::store
