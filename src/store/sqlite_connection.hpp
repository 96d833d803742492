// A thin RAII layer over one sqlite3 connection: statements cached per connection, typed
// binding and reading, and SQLite result codes turned into hermes Status values.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "hermes/status.hpp"
#include "store/fts_ranking_slot.hpp"

namespace hermes::store {

// The StatusCode for a SQLite result code: busy and locked are Unavailable (the write loop
// retries those), corruption and "not a database" DataLoss, constraint violations
// FailedPrecondition, a full disk ResourceExhausted, everything else IoError.
StatusCode sqlite_status_code(int rc);

// The Status for a failed SQLite call: the code above and SQLite's message after `what`.
Status sqlite_status(sqlite3* db, int rc, std::string_view what);

// One prepared statement in use. Borrowed from the connection's cache (or owned, for
// statements the cache does not keep); reset and unbound when it goes away, so the next
// user starts clean. Bind indexes are 1-based, as in SQLite.
//
// Thread-safety: used only by the thread holding the connection.
class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt, bool* in_use);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement();

  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, const std::string& text) {
    return bind(index, std::string_view(text));
  }
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::nullptr_t);
  // NULL when absent.
  Statement& bind(int index, const std::optional<std::string>& text);
  // NULL when empty: the store keeps "no value" as NULL, as upstream does.
  Statement& bind_or_null(int index, std::string_view text);

  // Advances to the next row: true when a row is available, false when done.
  Result<bool> step();
  // Runs a statement that returns no rows (or ignores them).
  Status run();

  bool is_null(int column) const;
  int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;  // "" for NULL.
  // The bytes of a BLOB (or text) column, valid until the next step or reset; empty for NULL.
  std::string_view blob(int column) const;
  std::optional<std::string> optional_text(int column) const;

 private:
  void note_bind(int rc);

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  bool* in_use_;  // The cache's flag, or nullptr when this object owns the statement.
  int bind_error_ = SQLITE_OK;
};

// One sqlite3 connection and its statement cache.
//
// Thread-safety: not thread-safe; the owner serialises access (SqliteDatabase holds a
// mutex around every use).
class Connection {
 public:
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Opens `path` with sqlite3_open_v2 `flags` (SQLITE_OPEN_* values), through the VFS
  // named `vfs` (nullptr: the default one).
  static Result<std::unique_ptr<Connection>> open(const std::string& path, int flags,
                                                  const char* vfs = nullptr);

  // A statement for `sql`, prepared once and kept for the life of the connection. A
  // statement already in use (a nested query with the same text) gets a private copy.
  Result<Statement> prepare(std::string_view sql);
  // A statement that is not cached: for SQL assembled per call (search filters).
  Result<Statement> prepare_uncached(std::string_view sql);
  // Runs one or more ;-separated statements without results (DDL, pragmas, BEGIN).
  Status exec(std::string_view sql);

  // The first column of the first row of `sql` as text, or nullopt when there is no row.
  Result<std::optional<std::string>> query_text(std::string_view sql);

  int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
  int64_t changes() const { return sqlite3_changes(db_); }
  sqlite3* handle() const { return db_; }
  // The slot of hermes_bm25 on this connection (fts_bm25.hpp), or nullptr when it is not
  // registered (no FTS5).
  FtsRankingSlot* ranking_slot() const { return ranking_slot_.get(); }

 private:
  struct CachedStatement {
    sqlite3_stmt* stmt = nullptr;
    bool in_use = false;
  };
  // Dynamic SQL must not grow the cache without bound.
  static constexpr std::size_t kMaxCachedStatements = 128;

  explicit Connection(sqlite3* db) : db_(db) {}
  Result<sqlite3_stmt*> compile(std::string_view sql, unsigned flags);

  sqlite3* db_;
  std::unique_ptr<FtsRankingSlot> ranking_slot_;  // Null when hermes_bm25 is not registered.
  std::unordered_map<std::string, CachedStatement> cache_;
};

}  // namespace hermes::store
