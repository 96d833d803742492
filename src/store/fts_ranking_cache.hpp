// What ranking needs from an FTS5 index, kept between queries: how many rows hold each
// phrase, so that ranking does not walk a common word's whole doclist on every search, and
// every row's length, once looking lengths up one match at a time has cost about as much
// as reading them all (see fts_bm25.hpp and fts_row_lengths.hpp).
//
// Both are exact for the read transaction they are used in. Each count remembers the
// highest row id it covers and is topped up with the rows above it, and the lengths are
// extended with the rows added, which is exact while the index only grows. Every lookup
// first reads the index's own totals (rows, tokens per column, highest row id) and checks
// them against the rows added since: a row deleted or rewritten breaks the sum, and
// everything is then taken again. One change escapes the totals: an old row rewritten
// with the same number of tokens in every column; its words' counts stay off by one until
// the next deletion or reopening.
//
// Thread-safety: safe for concurrent use; each caller brings its own connection, inside a
// read transaction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/fts_index_totals.hpp"
#include "store/fts_row_lengths.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

class FtsRankingCache {
 public:
  // What hermes_bm25 needs for one query.
  struct Statistics {
    int64_t rows = 0;
    int64_t tokens = 0;
    std::vector<int64_t> documents;  // Per phrase, in the order asked for.
    // Every row's length, when kept and valid for this transaction; else null.
    std::shared_ptr<const FtsRowLengths> lengths;
  };

  // How lookups were answered, for tests and benchmarks.
  struct Counters {
    int64_t reused = 0;        // Counts used as kept.
    int64_t topped_up = 0;     // Counts brought up to date with the rows added since.
    int64_t counted = 0;       // Counts taken from the whole index.
    int64_t resets = 0;        // Times everything kept was dropped (rows deleted or rewritten).
    int64_t length_loads = 0;  // Times every row's length was read.
  };

  // Lengths are read once the lookups they would have saved reach `load_lengths_after`
  // times the index's rows (reading them costs about an eighth as much per row as a lookup).
  explicit FtsRankingCache(double load_lengths_after = 0.125)
      : load_lengths_after_(load_lengths_after) {}

  // The statistics of `phrases` (standalone MATCH expressions, see fts_phrases.hpp) in the
  // FTS5 table `table`, as `db`'s read transaction sees them. nullopt when the index keeps
  // no size records to check against; an error when a count fails (a phrase FTS5 rejects).
  Result<std::optional<Statistics>> statistics(Connection& db, const std::string& table,
                                               const std::vector<std::string>& phrases);

  // Reports `lookups` lengths a query on `table` read from the index one match at a time.
  void record_length_lookups(const std::string& table, int64_t lookups);

  Counters counters() const;

 private:
  struct Count {
    uint64_t epoch = 0;     // The chain the count belongs to.
    int64_t covers = 0;     // The highest row id counted.
    int64_t documents = 0;  // Rows holding the phrase, up to `covers`.
    uint64_t used = 0;      // For eviction: the lookup that last used it.
  };

  // One table's knowledge: index states known to follow one another by appends alone
  // (increasing last row id), the counts taken at them and the lengths at the newest.
  struct Table {
    uint64_t epoch = 0;
    std::vector<FtsIndexTotals> chain;
    std::unordered_map<std::string, Count> counts;
    std::shared_ptr<const FtsRowLengths> lengths;  // Covers chain.back(), or null.
    int64_t length_lookups = 0;                    // Since the lengths were last dropped.
  };

  // Where a lookup stands: the chain state it extends and whether it may store what it learns.
  struct Footing {
    uint64_t epoch = 0;
    int64_t valid_up_to = FtsIndexTotals::kNoRows;  // Counts covering more are not usable.
    bool newest = false;  // The transaction sees the newest state of the chain.
  };

  Result<Footing> find_footing(Connection& db, const std::string& table, Table& cache,
                               const FtsIndexTotals& now);
  Result<std::vector<int64_t>> count_phrases(Connection& db, const std::string& table,
                                             const std::vector<std::string>& phrases,
                                             const FtsIndexTotals& now,
                                             const std::vector<std::optional<Count>>& kept);
  void store(Table& cache, const Footing& footing, const FtsIndexTotals& now,
             const std::vector<std::string>& phrases, const std::vector<int64_t>& documents);

  const double load_lengths_after_;
  mutable std::mutex mutex_;
  std::map<std::string, Table> tables_;
  uint64_t lookups_ = 0;
  Counters counters_;
};

}  // namespace hermes::store
