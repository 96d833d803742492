#include "store/sqlite_read_pool.hpp"

#include "safety/log.hpp"

namespace hermes::store {
namespace {

// Readers wait longer than the writer: they hold no lock anyone else waits for.
constexpr int kReadBusyTimeoutMs = 5000;
constexpr std::chrono::seconds kOpenBackoff{60};
// Readers map the file instead of copying each page out of the OS cache with a system call:
// a search ranking thousands of matches reads thousands of scattered pages, and copying
// them costs about a third of its time. The mapping is read-only and shares the OS cache,
// so it costs address space, not memory. 32-bit processes keep their address space.
// A connection maps the file once it has served one read: faulting a new mapping in costs
// more than copying the pages once (a one-shot search over a million messages: p50 24 ms
// mapped from the start, 20 ms copied), and a process that reads once never gains it back.
constexpr int64_t kReadMapBytes = sizeof(void*) >= 8 ? int64_t{1} << 30 : 0;

// `path` as a SQLite URI filename, so "mode=ro" can be given.
std::string read_only_uri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20) {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 0xF];
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?mode=ro";
}

}  // namespace

Result<std::unique_ptr<Connection>> SqliteReadPool::open_one() const {
  auto connection = Connection::open(read_only_uri(path_),
                                     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX);
  if (!connection.ok()) return connection.status();
  sqlite3_busy_timeout((*connection)->handle(), kReadBusyTimeoutMs);
  return connection;
}

std::unique_ptr<Connection> SqliteReadPool::borrow() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      return connection;
    }
    if (std::chrono::steady_clock::now() < retry_after_) return nullptr;
    if (open_ < max_) break;
    available_.wait(lock);
  }
  ++open_;
  lock.unlock();
  auto connection = open_one();
  if (connection.ok()) return std::move(*connection);
  HERMES_LOG_WARN("{}: cannot open a read-only connection ({}); reading on the writer for a while",
                  path_, connection.status().message());
  lock.lock();
  --open_;
  retry_after_ = std::chrono::steady_clock::now() + kOpenBackoff;
  available_.notify_all();
  return nullptr;
}

void SqliteReadPool::give_back(std::unique_ptr<Connection> connection, bool healthy) {
  std::unique_lock lock(mutex_);
  if (!healthy) {
    mapped_.erase(connection.get());
    --open_;
    available_.notify_one();
    return;
  }
  if (kReadMapBytes > 0 && mapped_.insert(connection.get()).second) {
    lock.unlock();  // The connection is still this caller's alone.
    // Best effort: a SQLite built without memory-mapped I/O reads as before.
    (void)connection->exec("PRAGMA mmap_size=" + std::to_string(kReadMapBytes));
    lock.lock();
  }
  idle_.push_back(std::move(connection));
  available_.notify_one();
}

}  // namespace hermes::store
