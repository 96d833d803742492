// The totals an FTS5 index keeps about itself, read from its shadow tables: how many rows
// it holds, their tokens per column and the highest row id. Comparing two readings tells
// whether the index only grew in between (see FtsDocumentFrequencies).
#pragma once

#include <cstdint>
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

// The totals of the FTS5 table `table` as `db`'s transaction sees them. nullopt when the
// table has no size records to read (created with columnsize=0, or not an FTS5 table).
Result<std::optional<FtsIndexTotals>> read_index_totals(Connection& db, const std::string& table);

// The totals of the rows of `table` with a row id above `after`; nullopt when there are more
// than `limit` of them (counting them would cost more than it saves).
Result<std::optional<FtsIndexTotals>> read_rows_after(Connection& db, const std::string& table,
                                                      int64_t after, int64_t limit);

}  // namespace hermes::store
