#include "store/postgres_connection.hpp"

#include <charconv>
#include <random>
#include <thread>

namespace hermes::store {
namespace {

// PostgreSQL rejects NUL in text; nothing hermes stores needs it.
std::string without_nul(std::string_view text) {
  std::string out(text);
  std::erase(out, '\0');
  return out;
}

StatusCode code_for_sqlstate(std::string_view state) {
  if (state == "23505") return StatusCode::kAlreadyExists;
  if (state.substr(0, 2) == "23") return StatusCode::kFailedPrecondition;
  if (state.substr(0, 2) == "40") return StatusCode::kUnavailable;  // Retryable conflicts.
  if (state.substr(0, 2) == "08" || state.substr(0, 3) == "57P") return StatusCode::kUnavailable;
  if (state.substr(0, 2) == "53") return StatusCode::kResourceExhausted;
  if (state.substr(0, 2) == "22") return StatusCode::kInvalidArgument;
  if (state.substr(0, 2) == "42" && state != "42P01") return StatusCode::kInternal;
  return StatusCode::kIoError;
}

void ignore_notice(void*, const char*) {}

}  // namespace

// ---- PgParams ----

PgParams& PgParams::add(std::string_view text) {
  values_.emplace_back(without_nul(text));
  return *this;
}

PgParams& PgParams::add(const std::optional<std::string>& text) {
  if (!text) return add_null();
  return add(std::string_view(*text));
}

PgParams& PgParams::add(int64_t value) {
  values_.emplace_back(std::to_string(value));
  return *this;
}

PgParams& PgParams::add(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  values_.emplace_back(std::string(buffer, ec == std::errc() ? end : buffer));
  return *this;
}

PgParams& PgParams::add_or_null(std::string_view text) {
  return text.empty() ? add_null() : add(text);
}

PgParams& PgParams::add_null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

// ---- PgResult ----

std::string PgResult::text(int row, int column) const {
  if (is_null(row, column)) return {};
  return std::string(PQgetvalue(result_.get(), row, column),
                     static_cast<std::size_t>(PQgetlength(result_.get(), row, column)));
}

std::optional<std::string> PgResult::optional_text(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return text(row, column);
}

int64_t PgResult::int64(int row, int column) const {
  const std::string value = text(row, column);
  int64_t out = 0;
  std::from_chars(value.data(), value.data() + value.size(), out);
  return out;
}

double PgResult::real(int row, int column) const {
  const std::string value = text(row, column);
  double out = 0;
  std::from_chars(value.data(), value.data() + value.size(), out);
  return out;
}

int64_t PgResult::affected() const {
  const char* count = PQcmdTuples(result_.get());
  return count == nullptr || *count == '\0' ? 0 : std::stoll(count);
}

// ---- PgConnection ----

PgConnection::~PgConnection() {
  PQfinish(conn_);
}

Result<std::unique_ptr<PgConnection>> PgConnection::open(const std::string& conninfo,
                                                         int connect_timeout_seconds,
                                                         const std::string& search_path) {
  const std::string timeout = std::to_string(connect_timeout_seconds);
  const char* keywords[] = {"dbname", "connect_timeout", "application_name", nullptr};
  const char* values[] = {conninfo.c_str(), timeout.c_str(), "hermes", nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) return Status::resource_exhausted("libpq could not allocate a connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    PQfinish(conn);
    return Status::unavailable("cannot connect to PostgreSQL: " + message);
  }
  PQsetNoticeProcessor(conn, &ignore_notice, nullptr);
  std::unique_ptr<PgConnection> connection(new PgConnection(conn));
  HERMES_RETURN_IF_ERROR(connection->exec_script("SET client_encoding = 'UTF8'"));
  if (!search_path.empty()) {
    HERMES_RETURN_IF_ERROR(connection->exec_script("SET search_path TO " + search_path));
  }
  return connection;
}

Status PgConnection::status_of(PGresult* result, std::string_view what) const {
  const ExecStatusType state = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (state == PGRES_COMMAND_OK || state == PGRES_TUPLES_OK) return {};
  std::string message = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  const char* sqlstate = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  StatusCode code = sqlstate != nullptr ? code_for_sqlstate(sqlstate) : StatusCode::kUnavailable;
  if (!healthy()) code = StatusCode::kUnavailable;
  std::string text(what);
  if (sqlstate != nullptr) text += std::string(" [") + sqlstate + "]";
  return Status(code, text + ": " + message);
}

Result<PgResult> PgConnection::exec(const std::string& sql, const PgParams& params) {
  std::vector<const char*> values;
  values.reserve(params.values_.size());
  for (const auto& v : params.values_) values.push_back(v ? v->c_str() : nullptr);
  PGresult* result = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                                  values.data(), nullptr, nullptr, 0);
  Status status = status_of(result, "PostgreSQL");
  if (!status.ok()) {
    PQclear(result);
    return status;
  }
  return PgResult(result);
}

Status PgConnection::exec_script(const std::string& sql) {
  PGresult* result = PQexec(conn_, sql.c_str());
  Status status = status_of(result, "PostgreSQL");
  PQclear(result);
  return status;
}

bool is_retryable(const Status& status) {
  const std::string& m = status.message();
  return m.find("[40001]") != std::string::npos || m.find("[40P01]") != std::string::npos;
}

// ---- PgPool ----

Result<std::unique_ptr<PgConnection>> PgPool::borrow() {
  std::unique_lock lock(mutex_);
  available_.wait(lock, [&] { return !idle_.empty() || open_ < max_; });
  if (!idle_.empty()) {
    auto connection = std::move(idle_.back());
    idle_.pop_back();
    return connection;
  }
  ++open_;
  lock.unlock();
  auto connection = PgConnection::open(conninfo_, timeout_, search_path_);
  if (!connection.ok()) {
    lock.lock();
    --open_;
    available_.notify_one();
  }
  return connection;
}

void PgPool::give_back(std::unique_ptr<PgConnection> connection) {
  std::lock_guard lock(mutex_);
  if (connection->healthy()) {
    idle_.push_back(std::move(connection));
  } else {
    --open_;  // A broken connection is dropped; the next borrow opens a new one.
  }
  available_.notify_one();
}

Status PgPool::with_connection(const PgBody& body) {
  auto connection = borrow();
  if (!connection.ok()) return connection.status();
  Status status = body(**connection);
  give_back(std::move(*connection));
  return status;
}

Status PgPool::transaction(const PgBody& body, int attempts) {
  thread_local std::mt19937 rng{std::random_device{}()};
  Status status;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    status = with_connection([&](PgConnection& c) -> Status {
      HERMES_RETURN_IF_ERROR(c.exec_script("BEGIN"));
      Status result = body(c);
      if (result.ok()) result = c.exec_script("COMMIT");
      if (!result.ok() && c.healthy()) c.exec_script("ROLLBACK");
      return result;
    });
    if (!is_retryable(status)) return status;
    std::uniform_int_distribution<int> ms(5, 20 + 20 * attempt);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms(rng)));
  }
  return status;
}

std::string quote_identifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace hermes::store
