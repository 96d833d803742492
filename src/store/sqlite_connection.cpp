#include "store/sqlite_connection.hpp"

#include <climits>

#include "store/fts_bm25.hpp"

namespace hermes::store {

StatusCode sqlite_status_code(int rc) {
  switch (rc & 0xFF) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StatusCode::kUnavailable;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return StatusCode::kDataLoss;
    case SQLITE_CONSTRAINT:
      return StatusCode::kFailedPrecondition;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return StatusCode::kPermissionDenied;
    case SQLITE_TOOBIG:
    case SQLITE_FULL:
    case SQLITE_NOMEM:
      return StatusCode::kResourceExhausted;
    default:
      return StatusCode::kIoError;
  }
}

Status sqlite_status(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += (db != nullptr && sqlite3_errcode(db) == rc) ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  return Status(sqlite_status_code(rc), std::move(message));
}

// ---- Statement ----

Statement::Statement(sqlite3* db, sqlite3_stmt* stmt, bool* in_use)
    : db_(db), stmt_(stmt), in_use_(in_use) {}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), in_use_(other.in_use_), bind_error_(other.bind_error_) {
  other.stmt_ = nullptr;
  other.in_use_ = nullptr;
}

Statement::~Statement() {
  if (stmt_ == nullptr) return;
  if (in_use_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    *in_use_ = false;
  } else {
    sqlite3_finalize(stmt_);
  }
}

void Statement::note_bind(int rc) {
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (text.size() > static_cast<std::size_t>(INT_MAX)) {
    note_bind(SQLITE_TOOBIG);
    return *this;
  }
  // SQLITE_TRANSIENT: the bound text may die before the statement runs.
  note_bind(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                              SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind(int index, int64_t value) {
  note_bind(sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Statement& Statement::bind(int index, double value) {
  note_bind(sqlite3_bind_double(stmt_, index, value));
  return *this;
}

Statement& Statement::bind(int index, std::nullptr_t) {
  note_bind(sqlite3_bind_null(stmt_, index));
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& text) {
  return text ? bind(index, std::string_view(*text)) : bind(index, nullptr);
}

Statement& Statement::bind_or_null(int index, std::string_view text) {
  return text.empty() ? bind(index, nullptr) : bind(index, text);
}

Result<bool> Statement::step() {
  if (bind_error_ != SQLITE_OK) return sqlite_status(db_, bind_error_, "binding a parameter");
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return sqlite_status(db_, rc, "executing SQL");
}

Status Statement::run() {
  for (;;) {
    auto row = step();
    if (!row.ok()) return row.status();
    if (!*row) return {};
  }
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (data == nullptr) return {};
  return std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::string_view Statement::blob(int column) const {
  const void* data = sqlite3_column_blob(stmt_, column);
  if (data == nullptr) return {};
  return {static_cast<const char*>(data),
          static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

// ---- Connection ----

Connection::~Connection() {
  for (auto& [sql, cached] : cache_) sqlite3_finalize(cached.stmt);
  sqlite3_close_v2(db_);
}

Result<std::unique_ptr<Connection>> Connection::open(const std::string& path, int flags,
                                                     const char* vfs) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, vfs);
  if (rc != SQLITE_OK) {
    Status status = sqlite_status(db, rc, "opening " + path);
    sqlite3_close_v2(db);
    return status;
  }
  sqlite3_extended_result_codes(db, 1);
  auto connection = std::unique_ptr<Connection>(new Connection(db));
  auto slot = std::make_unique<FtsRankingSlot>();
  if (register_ranking_function(db, slot.get())) connection->ranking_slot_ = std::move(slot);
  return connection;
}

Result<sqlite3_stmt*> Connection::compile(std::string_view sql, unsigned flags) {
  sqlite3_stmt* stmt = nullptr;
  const int rc =
      sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), flags, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return sqlite_status(db_, rc, "preparing SQL");
  }
  if (stmt == nullptr) return Status::internal("empty SQL statement");
  return stmt;
}

Result<Statement> Connection::prepare(std::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it != cache_.end() && !it->second.in_use) {
    it->second.in_use = true;
    return Statement(db_, it->second.stmt, &it->second.in_use);
  }
  const bool cacheable = it == cache_.end() && cache_.size() < kMaxCachedStatements;
  auto stmt = compile(sql, cacheable ? SQLITE_PREPARE_PERSISTENT : 0);
  if (!stmt.ok()) return stmt.status();
  if (!cacheable) {
    return Statement(db_, *stmt, nullptr);
  }
  auto& cached = cache_[std::string(sql)];
  cached.stmt = *stmt;
  cached.in_use = true;
  return Statement(db_, cached.stmt, &cached.in_use);
}

Result<Statement> Connection::prepare_uncached(std::string_view sql) {
  auto stmt = compile(sql, 0);
  if (!stmt.ok()) return stmt.status();
  return Statement(db_, *stmt, nullptr);
}

Status Connection::exec(std::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return {};
  std::string message = "executing SQL: ";
  message += error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return Status(sqlite_status_code(rc), std::move(message));
}

Result<std::optional<std::string>> Connection::query_text(std::string_view sql) {
  auto stmt = prepare_uncached(sql);
  if (!stmt.ok()) return stmt.status();
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return stmt->optional_text(0);
}

}  // namespace hermes::store
