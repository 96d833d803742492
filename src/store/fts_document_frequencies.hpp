// How many rows of an FTS5 index hold each phrase of a query, kept between queries so that
// ranking does not walk the whole doclist of a common word on every search (see
// fts_bm25.hpp).
//
// Counts are exact for the read transaction they are used in. Each count remembers the
// highest row id it covers and is topped up with the rows above it, which is exact while
// the index only grows. Every lookup first reads the index's own totals (rows, tokens per
// column, highest row id) and checks them against the rows added since the counts were
// taken: a row deleted or rewritten breaks the sum, and the counts are then taken again.
// One change escapes the totals: an old row rewritten with the same number of tokens in
// every column; its words' counts stay off by one until the next deletion or reopening.
//
// Thread-safety: safe for concurrent use; each caller brings its own connection, inside a
// read transaction.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/fts_index_totals.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

class FtsDocumentFrequencies {
 public:
  // What hermes_bm25 needs for one query: the index totals and a count per phrase.
  struct Statistics {
    int64_t rows = 0;
    int64_t tokens = 0;
    std::vector<int64_t> documents;  // In the order of the phrases asked for.
  };

  // How lookups were answered, for tests and benchmarks.
  struct Counters {
    int64_t reused = 0;     // Counts used as kept.
    int64_t topped_up = 0;  // Counts brought up to date with the rows added since.
    int64_t counted = 0;    // Counts taken from the whole index.
    int64_t resets = 0;     // Times every kept count was dropped (rows deleted or rewritten).
  };

  // The counts of `phrases` (standalone MATCH expressions, see fts_phrases.hpp) in the FTS5
  // table `table`, as `db`'s read transaction sees them. nullopt when the index keeps no
  // size records to check against; an error when a count fails (a phrase FTS5 rejects).
  Result<std::optional<Statistics>> statistics(Connection& db, const std::string& table,
                                               const std::vector<std::string>& phrases);

  Counters counters() const;

 private:
  struct Count {
    uint64_t epoch = 0;     // The chain the count belongs to.
    int64_t covers = 0;     // The highest row id counted.
    int64_t documents = 0;  // Rows holding the phrase, up to `covers`.
    uint64_t used = 0;      // For eviction: the lookup that last used it.
  };

  // What one table's counts go with: index states known to follow one another by appends
  // alone (increasing last row id), and the counts taken at them.
  struct Table {
    uint64_t epoch = 0;
    std::vector<FtsIndexTotals> chain;
    std::unordered_map<std::string, Count> counts;
  };

  // Where a lookup stands: the chain state it extends and whether it may store counts.
  struct Footing {
    uint64_t epoch = 0;
    int64_t valid_up_to = FtsIndexTotals::kNoRows;  // Counts covering more are not usable.
    bool may_store = false;  // The transaction sees the newest state of the chain.
  };

  Result<Footing> find_footing(Connection& db, const std::string& table, Table& cache,
                               const FtsIndexTotals& now);
  void store(Table& cache, const Footing& footing, const FtsIndexTotals& now,
             const std::vector<std::string>& phrases, const std::vector<int64_t>& documents);

  mutable std::mutex mutex_;
  std::map<std::string, Table> tables_;
  uint64_t lookups_ = 0;
  Counters counters_;
};

}  // namespace hermes::store
