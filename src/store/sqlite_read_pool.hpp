// Read-only connections that reads borrow instead of queueing behind the writer. Safe only
// in WAL mode, where readers never block the writer and always see a committed snapshot.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "hermes/status.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

// Thread-safety: safe for concurrent use.
class SqliteReadPool {
 public:
  // Up to `max_connections` connections to `path`, opened on first need.
  SqliteReadPool(std::string path, int max_connections)
      : path_(std::move(path)), max_(max_connections) {}

  // A connection to read on, or nullptr when the pool cannot open one (the caller then
  // reads on the writer). A failed open stops the pool from trying again for a minute.
  std::unique_ptr<Connection> borrow();

  // Gives a borrowed connection back; a connection that failed is dropped instead. A
  // connection back from its first read starts mapping the file (see the .cpp).
  void give_back(std::unique_ptr<Connection> connection, bool healthy);

 private:
  Result<std::unique_ptr<Connection>> open_one() const;

  const std::string path_;
  const int max_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;        // Guarded by mutex_.
  std::unordered_set<const Connection*> mapped_;         // Guarded by mutex_.
  int open_ = 0;                                         // Guarded by mutex_.
  std::chrono::steady_clock::time_point retry_after_{};  // Guarded by mutex_.
};

}  // namespace hermes::store
