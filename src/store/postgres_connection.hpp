// A thin layer over libpq: connections, results, parameters as text, SQLSTATEs turned
// into hermes Status values, a bounded connection pool and retried transactions.
#pragma once

#include <libpq-fe.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::store {

// Query parameters, all sent as text (NULL when absent).
class PgParams {
 public:
  PgParams& add(std::string_view text);
  PgParams& add(const std::string& text) { return add(std::string_view(text)); }
  PgParams& add(const char* text) { return add(std::string_view(text)); }
  PgParams& add(const std::optional<std::string>& text);
  PgParams& add(int64_t value);
  PgParams& add(double value);
  PgParams& add_or_null(std::string_view text);  // NULL when empty.
  PgParams& add_null();
  std::size_t size() const { return values_.size(); }
  // "$<n>" of the parameter the next add() will fill.
  std::string next() const { return "$" + std::to_string(values_.size() + 1); }

 private:
  friend class PgConnection;
  std::vector<std::optional<std::string>> values_;
};

// One query result. Columns are read as text.
class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool is_null(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  std::string text(int row, int column) const;  // "" for NULL.
  std::optional<std::string> optional_text(int row, int column) const;
  int64_t int64(int row, int column) const;  // 0 for NULL or unparsable.
  double real(int row, int column) const;    // 0 for NULL or unparsable.
  int64_t affected() const;                  // Rows an UPDATE/DELETE/INSERT touched.

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> result_;
};

// One server connection. Not thread-safe: the pool hands it to one thread at a time.
class PgConnection {
 public:
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Connects; Unavailable with the server's message when it cannot. `search_path` is set
  // for the session when not empty.
  static Result<std::unique_ptr<PgConnection>> open(const std::string& conninfo,
                                                    int connect_timeout_seconds,
                                                    const std::string& search_path);

  Result<PgResult> exec(const std::string& sql, const PgParams& params = {});
  // Runs SQL without parameters (several ;-separated statements allowed).
  Status exec_script(const std::string& sql);
  bool healthy() const { return PQstatus(conn_) == CONNECTION_OK; }

 private:
  explicit PgConnection(PGconn* conn) : conn_(conn) {}
  Status status_of(PGresult* result, std::string_view what) const;

  PGconn* conn_;
};

// True for errors a transaction may be retried after: serialization failures, deadlocks.
bool is_retryable(const Status& status);

// A transaction body; may run more than once.
using PgBody = std::function<Status(PgConnection&)>;

// A bounded set of connections to one database.
//
// Thread-safety: safe for concurrent use.
class PgPool {
 public:
  PgPool(std::string conninfo, std::string search_path, int max_connections, int timeout_seconds)
      : conninfo_(std::move(conninfo)),
        search_path_(std::move(search_path)),
        max_(max_connections),
        timeout_(timeout_seconds) {}

  // Runs `body` in one transaction (BEGIN ... COMMIT), replayed after serialization
  // failures and deadlocks with a random back-off, for up to `attempts` tries.
  Status transaction(const PgBody& body, int attempts = 20);
  // Runs `body` on a connection outside any explicit transaction.
  Status with_connection(const PgBody& body);

 private:
  Result<std::unique_ptr<PgConnection>> borrow();
  void give_back(std::unique_ptr<PgConnection> connection);

  const std::string conninfo_;
  const std::string search_path_;
  const int max_;
  const int timeout_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<PgConnection>> idle_;  // Guarded by mutex_.
  int open_ = 0;                                     // Guarded by mutex_.
};

// `name` quoted as an SQL identifier.
std::string quote_identifier(std::string_view name);

}  // namespace hermes::store
