#include "store/sqlite_database.hpp"

#include <algorithm>
#include <random>
#include <thread>

#include "safety/log.hpp"
#include "store/sqlite_wal_batching.hpp"

namespace hermes::store {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// SQLite itself waits this long for a lock before reporting busy; the application-level
// retry below does the real waiting, with the mutex released.
constexpr int kBusyTimeoutMs = 1000;
// A PASSIVE checkpoint every this many writes keeps the WAL from growing without bound
// when readers never let SQLite's automatic checkpoint finish.
constexpr uint64_t kCheckpointEveryWrites = 50;
// Short sleeps while contention is young, longer ones once it is clearly not.
constexpr milliseconds kEagerRetryWindow{2000};
constexpr int kReadIoRetries = 3;
constexpr milliseconds kReadIoRetryDelay{50};

milliseconds retry_delay(Clock::duration waited) {
  thread_local std::mt19937 rng{std::random_device{}()};
  const bool eager = waited < kEagerRetryWindow;
  std::uniform_int_distribution<int> ms = eager ? std::uniform_int_distribution<int>(20, 150)
                                                : std::uniform_int_distribution<int>(250, 1000);
  return milliseconds(ms(rng));
}

// Some file systems (NFS, SMB, FUSE) cannot host the WAL's shared memory.
bool wal_unsupported(const Status& status) {
  const std::string& m = status.message();
  return m.find("locking protocol") != std::string::npos ||
         m.find("not authorized") != std::string::npos;
}

// The PRAGMA that makes the writer's commits as durable as asked. Set explicitly even for
// kFull, which is SQLite's usual default: a build may default WAL connections to NORMAL.
const char* synchronous_pragma(Durability durability, bool wal, const std::string& path) {
  if (durability != Durability::kNormal) return "PRAGMA synchronous=FULL";
  if (!wal) {
    HERMES_LOG_WARN("{}: durability normal needs WAL; keeping full", path);
    return "PRAGMA synchronous=FULL";
  }
#ifdef __APPLE__
  // Darwin's fsync does not order writes: with NORMAL a checkpoint racing the end of the
  // process can leave half-written pages (upstream keeps FULL there for that reason).
  HERMES_LOG_WARN("{}: durability normal is not safe on this platform; keeping full", path);
  return "PRAGMA synchronous=FULL";
#else
  return "PRAGMA synchronous=NORMAL";
#endif
}

// BEGIN and COMMIT from the connection's statement cache: sqlite3_exec would compile them
// again for every transaction.
Status run_cached(Connection& connection, const char* sql) {
  auto stmt = connection.prepare(sql);
  if (!stmt.ok()) return stmt.status();
  return stmt->run();
}

}  // namespace

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::open(const std::string& path,
                                                             bool read_only) {
  const int flags =
      (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
      SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  // The writer appends to the log through the batching VFS (sqlite_wal_batching.hpp).
  auto connection = Connection::open(path, flags, read_only ? nullptr : wal_batching_vfs_name());
  if (!connection.ok()) return connection.status();
  sqlite3_busy_timeout((*connection)->handle(), kBusyTimeoutMs);
  if (!read_only) HERMES_RETURN_IF_ERROR((*connection)->exec("PRAGMA foreign_keys=ON"));
  return std::unique_ptr<SqliteDatabase>(
      new SqliteDatabase(path, std::move(*connection), read_only));
}

Status SqliteDatabase::enable_write_ahead_log(int read_connections, Durability durability) {
  std::lock_guard lock(mutex_);
  auto mode = connection_->query_text("PRAGMA journal_mode=WAL");
  if (!mode.ok() && !wal_unsupported(mode.status())) return mode.status();
  const bool wal = mode.ok() && mode->value_or("") == "wal";
  if (mode.ok()) {
    if (wal && read_connections > 0 && !read_only_) {
      read_pool_ = std::make_unique<SqliteReadPool>(path_, read_connections);
    }
  } else {
    HERMES_LOG_WARN("{}: WAL is not supported here ({}); using the DELETE journal", path_,
                    mode.status().message());
    HERMES_RETURN_IF_ERROR(connection_->query_text("PRAGMA journal_mode=DELETE").status());
  }
  if (read_only_) return {};
  return connection_->exec(synchronous_pragma(durability, wal, path_));
}

Status SqliteDatabase::attempt(Connection& connection, const char* begin_sql,
                               const TransactionBody& body) {
  HERMES_RETURN_IF_ERROR(run_cached(connection, begin_sql));
  Status status = body(connection);
  if (status.ok()) status = run_cached(connection, "COMMIT");
  if (!status.ok() && !sqlite3_get_autocommit(connection.handle())) {
    connection.exec("ROLLBACK");  // Best effort: the error that matters is `status`.
  }
  return status;
}

std::optional<Status> SqliteDatabase::pooled_read(const TransactionBody& body) {
  if (read_pool_ == nullptr) return std::nullopt;
  std::unique_ptr<Connection> connection = read_pool_->borrow();
  if (connection == nullptr) return std::nullopt;
  Status status;
  // A transient I/O error of a read-only connection is worth a few quick retries.
  for (int attempt_number = 0; attempt_number < kReadIoRetries; ++attempt_number) {
    status = attempt(*connection, "BEGIN", body);
    if (status.code() != StatusCode::kIoError) break;
    std::this_thread::sleep_for(kReadIoRetryDelay);
  }
  read_pool_->give_back(std::move(connection), status.code() != StatusCode::kIoError);
  return status;
}

Status SqliteDatabase::run_with_patience(const char* begin_sql, const TransactionBody& body,
                                         milliseconds patience, bool is_write) {
  const auto start = Clock::now();
  const auto deadline = start + patience;
  for (;;) {
    {
      std::optional<Status> pooled = is_write ? std::nullopt : pooled_read(body);
      std::unique_lock lock(mutex_, std::defer_lock);
      if (!pooled) lock.lock();
      Status status = pooled ? *pooled : attempt(*connection_, begin_sql, body);
      if (status.code() != StatusCode::kUnavailable) {
        if (status.ok() && is_write) after_successful_write();
        return status;
      }
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      const auto waited = std::chrono::duration_cast<std::chrono::seconds>(now - start);
      return Status::unavailable(path_ + " stayed locked for " + std::to_string(waited.count()) +
                                 " s: another process held the write lock (contention, not "
                                 "corruption)");
    }
    // Sleep with the mutex released so this process's other writers can make progress.
    const auto delay = std::min<Clock::duration>(retry_delay(now - start), deadline - now);
    std::this_thread::sleep_for(delay);
  }
}

Status SqliteDatabase::write(const TransactionBody& body, milliseconds patience) {
  if (read_only_) return Status::failed_precondition(path_ + " was opened read-only");
  return run_with_patience("BEGIN IMMEDIATE", body, patience, /*is_write=*/true);
}

Status SqliteDatabase::read(const TransactionBody& body) {
  return run_with_patience("BEGIN", body, kDefaultWritePatience, /*is_write=*/false);
}

Status SqliteDatabase::with_connection(const TransactionBody& body) {
  std::lock_guard lock(mutex_);
  return body(*connection_);
}

void SqliteDatabase::set_periodic_task(uint64_t every, std::function<void(Connection&)> task) {
  periodic_every_ = every;
  periodic_task_ = std::move(task);
}

void SqliteDatabase::after_successful_write() {
  ++successful_writes_;
  if (periodic_task_ && periodic_every_ > 0 && successful_writes_ % periodic_every_ == 0) {
    periodic_task_(*connection_);
  }
  if (successful_writes_ % kCheckpointEveryWrites != 0) return;
  // Best effort: a checkpoint that cannot finish now finishes on a later write.
  sqlite3_wal_checkpoint_v2(connection_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                            nullptr);
}

}  // namespace hermes::store
