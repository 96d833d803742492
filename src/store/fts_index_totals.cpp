// FTS5 keeps the totals in two shadow tables, in SQLite's variable-length integer format:
// row 1 of <table>_data (the "averages" record) holds the number of rows and then the
// tokens of each column over all rows; <table>_docsize holds each row's tokens per column.
#include "store/fts_index_totals.hpp"

#include <algorithm>

namespace hermes::store {
namespace {

constexpr int64_t kAveragesRowid = 1;

// Reads one SQLite varint at `pos`: big-endian groups of 7 bits, the high bit set on every
// byte but the last; a ninth byte contributes all 8 bits.
bool read_varint(std::string_view bytes, std::size_t& pos, int64_t& out) {
  uint64_t value = 0;
  for (int i = 0; i < 9; ++i) {
    if (pos >= bytes.size()) return false;
    const auto byte = static_cast<unsigned char>(bytes[pos++]);
    if (i == 8) {
      value = (value << 8) | byte;
      out = static_cast<int64_t>(value);
      return true;
    }
    value = (value << 7) | (byte & 0x7F);
    if ((byte & 0x80) == 0) {
      out = static_cast<int64_t>(value);
      return true;
    }
  }
  return false;
}

// Every varint of `bytes`; nullopt when the record is malformed.
std::optional<std::vector<int64_t>> read_varints(std::string_view bytes) {
  std::vector<int64_t> values;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    int64_t value = 0;
    if (!read_varint(bytes, pos, value)) return std::nullopt;
    values.push_back(value);
  }
  return values;
}

void add_tokens(std::vector<int64_t>& sum, const std::vector<int64_t>& more) {
  if (sum.size() < more.size()) sum.resize(more.size(), 0);
  for (std::size_t i = 0; i < more.size(); ++i) sum[i] += more[i];
}

std::string shadow(const std::string& table, const char* suffix) {
  return "\"" + table + suffix + "\"";
}

}  // namespace

int64_t FtsIndexTotals::total_tokens() const {
  int64_t sum = 0;
  for (int64_t t : tokens) sum += t;
  return sum;
}

FtsIndexTotals operator+(const FtsIndexTotals& a, const FtsIndexTotals& b) {
  FtsIndexTotals sum = a;
  sum.rows += b.rows;
  add_tokens(sum.tokens, b.tokens);
  sum.last_rowid = std::max(a.last_rowid, b.last_rowid);
  return sum;
}

bool operator==(const FtsIndexTotals& a, const FtsIndexTotals& b) {
  if (a.rows != b.rows || a.last_rowid != b.last_rowid) return false;
  const std::size_t n = std::max(a.tokens.size(), b.tokens.size());
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t x = i < a.tokens.size() ? a.tokens[i] : 0;
    const int64_t y = i < b.tokens.size() ? b.tokens[i] : 0;
    if (x != y) return false;
  }
  return true;
}

Result<std::optional<FtsIndexTotals>> read_index_totals(Connection& db, const std::string& table) {
  auto averages =
      db.prepare("SELECT block FROM " + shadow(table, "_data") + " WHERE id = ?");
  auto last = db.prepare("SELECT max(id) FROM " + shadow(table, "_docsize"));
  if (!averages.ok() || !last.ok()) return std::optional<FtsIndexTotals>();
  FtsIndexTotals totals;
  averages->bind(1, kAveragesRowid);
  auto row = averages->step();
  if (!row.ok()) return row.status();
  if (*row) {  // No record, or an empty one: nothing was ever indexed.
    auto values = read_varints(averages->blob(0));
    if (!values) return std::optional<FtsIndexTotals>();
    if (!values->empty()) {
      totals.rows = values->front();
      totals.tokens.assign(values->begin() + 1, values->end());
    }
  }
  auto max_row = last->step();
  if (!max_row.ok()) return max_row.status();
  if (*max_row && !last->is_null(0)) totals.last_rowid = last->int64(0);
  return std::optional(std::move(totals));
}

Result<std::optional<FtsIndexTotals>> read_rows_after(Connection& db, const std::string& table,
                                                      int64_t after, int64_t limit) {
  auto stmt = db.prepare("SELECT id, sz FROM " + shadow(table, "_docsize") +
                         " WHERE id > ? ORDER BY id LIMIT ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, after).bind(2, limit + 1);
  FtsIndexTotals added;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) return std::optional(std::move(added));
    if (added.rows == limit) return std::optional<FtsIndexTotals>();
    auto sizes = read_varints(stmt->blob(1));
    if (!sizes) return std::optional<FtsIndexTotals>();
    added.rows += 1;
    add_tokens(added.tokens, *sizes);
    added.last_rowid = stmt->int64(0);
  }
}

}  // namespace hermes::store
