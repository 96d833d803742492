// The totals an FTS5 index keeps about itself, read from its shadow tables: how many rows
// it holds, their tokens per column and the highest row id. Comparing two readings tells
// whether the index only grew in between (see FtsRankingCache).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "store/sqlite_connection.hpp"

namespace hermes::store {

struct FtsIndexTotals {
  static constexpr int64_t kNoRows = std::numeric_limits<int64_t>::min();

  int64_t rows = 0;
  std::vector<int64_t> tokens;  // Per column; missing columns count as 0.
  int64_t last_rowid = kNoRows;

  int64_t total_tokens() const;
  // The totals of `a` and `b` together (`b` holding rows after `a`'s).
  friend FtsIndexTotals operator+(const FtsIndexTotals& a, const FtsIndexTotals& b);
  friend bool operator==(const FtsIndexTotals& a, const FtsIndexTotals& b);
};

// One row's length: its tokens over all columns.
struct FtsRowLength {
  int64_t rowid = 0;
  uint32_t tokens = 0;
};

// The tokens of a row over all its columns (a row holds at most a few hundred million).
uint32_t row_tokens(const std::vector<int64_t>& columns);

// Rows read from the size records: their totals and each one's length, ascending by id.
struct FtsAddedRows {
  FtsIndexTotals totals;
  std::vector<FtsRowLength> rows;
};

// The totals of the FTS5 table `table` as `db`'s transaction sees them. nullopt when the
// table has no size records to read (created with columnsize=0, or not an FTS5 table).
Result<std::optional<FtsIndexTotals>> read_index_totals(Connection& db, const std::string& table);

// The rows of `table` with a row id above `after`; nullopt when there are more than `limit`
// of them (reading them would cost more than it saves) or a size record is malformed.
Result<std::optional<FtsAddedRows>> read_rows_after(Connection& db, const std::string& table,
                                                    int64_t after, int64_t limit);

// Calls `visit` with the id and tokens per column of each row of `table` with an id in
// (after, up_to], ascending, while it returns true. False when a call returned false or a
// size record is malformed.
using FtsRowVisitor = std::function<bool(int64_t rowid, const std::vector<int64_t>& columns)>;
Result<bool> for_each_row_size(Connection& db, const std::string& table, int64_t after,
                               int64_t up_to, const FtsRowVisitor& visit);

}  // namespace hermes::store
