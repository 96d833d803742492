// The length in tokens of every row of an FTS5 index, kept in memory. bm25 needs the
// length of each match; FTS5 reads it with one lookup in the index's size table per match,
// about 2 µs each, which made it most of the time of ranking a word with thousands of
// matches. Reading every length once costs about what 1/8 as many lookups do.
//
// Immutable once built: a newer index state gets an extended copy that shares all but the
// last chunk with this one, so a query may keep using the object it was given.
//
// Thread-safety: immutable, safe for concurrent use.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "store/fts_index_totals.hpp"
#include "store/sqlite_connection.hpp"

namespace hermes::store {

class FtsRowLengths {
 public:
  static constexpr uint32_t kUnknown = std::numeric_limits<uint32_t>::max();

  // Every row of the FTS5 table `table` as `db`'s transaction sees it (`now` is what
  // read_index_totals says of it). nullptr when row ids are too sparse for an array.
  static Result<std::shared_ptr<const FtsRowLengths>> load(Connection& db, const std::string& table,
                                                           const FtsIndexTotals& now);

  // A copy that also holds `rows`, whose ids are all above covers(), in ascending order.
  // nullptr when they would make the ids too sparse.
  std::shared_ptr<const FtsRowLengths> extended(const std::vector<FtsRowLength>& rows) const;

  // The tokens of row `rowid` over all columns, or kUnknown for a row not held.
  uint32_t find(int64_t rowid) const {
    if (rowid < origin_ || rowid > covers_) return kUnknown;
    const auto offset = static_cast<uint64_t>(rowid - origin_);
    return (*chunks_[offset / kChunkRows])[offset % kChunkRows];
  }

  // The highest row id the lengths are for.
  int64_t covers() const { return covers_; }

 private:
  static constexpr uint64_t kChunkRows = 65'536;
  using Chunk = std::vector<uint32_t>;

  FtsRowLengths(int64_t origin, int64_t covers) : origin_(origin), covers_(covers) {}
  // Adds rows above covers_; false when they would make the ids too sparse.
  bool append(const std::vector<FtsRowLength>& rows);
  // Chunk `index`, created or copied first when another object shares it.
  Chunk& writable_chunk(std::size_t index);

  int64_t origin_;  // The row id of the first slot.
  int64_t covers_;
  int64_t rows_ = 0;
  std::vector<std::shared_ptr<Chunk>> chunks_;  // Never changed once the object is shared.
  std::size_t private_from_ = 0;                // Chunks from here on belong to this object.
};

}  // namespace hermes::store
