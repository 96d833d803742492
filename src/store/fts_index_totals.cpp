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

// Every varint of `bytes` into `values`; false when the record is malformed.
bool read_varints(std::string_view bytes, std::vector<int64_t>& values) {
  values.clear();
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    int64_t value = 0;
    if (!read_varint(bytes, pos, value)) return false;
    values.push_back(value);
  }
  return true;
}

void add_tokens(std::vector<int64_t>& sum, const std::vector<int64_t>& more) {
  if (sum.size() < more.size()) sum.resize(more.size(), 0);
  for (std::size_t i = 0; i < more.size(); ++i) sum[i] += more[i];
}

std::string shadow(const std::string& table, const char* suffix) {
  return "\"" + table + suffix + "\"";
}

}  // namespace

uint32_t row_tokens(const std::vector<int64_t>& columns) {
  int64_t tokens = 0;
  for (int64_t t : columns) tokens += t;
  return static_cast<uint32_t>(std::clamp<int64_t>(tokens, 0, INT32_MAX));
}

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
  auto averages = db.prepare("SELECT block FROM " + shadow(table, "_data") + " WHERE id = ?");
  auto last = db.prepare("SELECT max(id) FROM " + shadow(table, "_docsize"));
  if (!averages.ok() || !last.ok()) return std::optional<FtsIndexTotals>();
  FtsIndexTotals totals;
  averages->bind(1, kAveragesRowid);
  auto row = averages->step();
  if (!row.ok()) return row.status();
  if (*row) {  // No record, or an empty one: nothing was ever indexed.
    std::vector<int64_t> values;
    if (!read_varints(averages->blob(0), values)) return std::optional<FtsIndexTotals>();
    if (!values.empty()) {
      totals.rows = values.front();
      totals.tokens.assign(values.begin() + 1, values.end());
    }
  }
  auto max_row = last->step();
  if (!max_row.ok()) return max_row.status();
  if (*max_row && !last->is_null(0)) totals.last_rowid = last->int64(0);
  return std::optional(std::move(totals));
}

Result<bool> for_each_row_size(Connection& db, const std::string& table, int64_t after,
                               int64_t up_to, const FtsRowVisitor& visit) {
  auto stmt = db.prepare("SELECT id, sz FROM " + shadow(table, "_docsize") +
                         " WHERE id > ? AND id <= ? ORDER BY id");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, after).bind(2, up_to);
  std::vector<int64_t> columns;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) return true;
    if (!read_varints(stmt->blob(1), columns)) return false;
    if (!visit(stmt->int64(0), columns)) return false;
  }
}

Result<std::optional<FtsAddedRows>> read_rows_after(Connection& db, const std::string& table,
                                                    int64_t after, int64_t limit) {
  FtsAddedRows added;
  auto complete = for_each_row_size(db, table, after, std::numeric_limits<int64_t>::max(),
                                    [&](int64_t rowid, const std::vector<int64_t>& columns) {
                                      if (added.totals.rows == limit) return false;
                                      added.totals.rows += 1;
                                      add_tokens(added.totals.tokens, columns);
                                      added.totals.last_rowid = rowid;
                                      added.rows.push_back({rowid, row_tokens(columns)});
                                      return true;
                                    });
  if (!complete.ok()) return complete.status();
  if (!*complete) return std::optional<FtsAddedRows>();
  return std::optional(std::move(added));
}

}  // namespace hermes::store
