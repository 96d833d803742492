#include "store/fts_row_lengths.hpp"

namespace hermes::store {
namespace {

// Slots held per row, at most: ids with larger gaps are kept out of the array.
constexpr int64_t kMaxSlotsPerRow = 2;
constexpr int64_t kSlack = 65'536;

bool too_sparse(int64_t origin, int64_t last, int64_t rows) {
  return last - origin + 1 > kMaxSlotsPerRow * rows + kSlack;
}

}  // namespace

FtsRowLengths::Chunk& FtsRowLengths::writable_chunk(std::size_t index) {
  while (chunks_.size() <= index) {
    chunks_.push_back(std::make_shared<Chunk>(kChunkRows, kUnknown));
  }
  if (index < private_from_) {
    chunks_[index] = std::make_shared<Chunk>(*chunks_[index]);
    private_from_ = index;  // Rows only come above covers_: no earlier chunk is written.
  }
  return *chunks_[index];
}

bool FtsRowLengths::append(const std::vector<FtsRowLength>& rows) {
  if (rows.empty()) return true;
  if (too_sparse(origin_, rows.back().rowid, rows_ + static_cast<int64_t>(rows.size()))) {
    return false;
  }
  for (const FtsRowLength& row : rows) {
    const auto offset = static_cast<uint64_t>(row.rowid - origin_);
    writable_chunk(offset / kChunkRows)[offset % kChunkRows] = row.tokens;
  }
  rows_ += static_cast<int64_t>(rows.size());
  covers_ = rows.back().rowid;
  return true;
}

std::shared_ptr<const FtsRowLengths> FtsRowLengths::extended(
    const std::vector<FtsRowLength>& rows) const {
  auto copy = std::shared_ptr<FtsRowLengths>(new FtsRowLengths(*this));
  copy->private_from_ = copy->chunks_.size();
  if (!copy->append(rows)) return nullptr;
  return copy;
}

Result<std::shared_ptr<const FtsRowLengths>> FtsRowLengths::load(Connection& db,
                                                                 const std::string& table,
                                                                 const FtsIndexTotals& now) {
  auto first = db.query_text("SELECT min(id) FROM \"" + table + "_docsize\"");
  if (!first.ok()) return first.status();
  const int64_t origin = first->has_value() ? std::stoll(**first) : 0;
  if (now.rows == 0 || too_sparse(origin, now.last_rowid, now.rows)) {
    return std::shared_ptr<const FtsRowLengths>();
  }
  auto lengths = std::shared_ptr<FtsRowLengths>(new FtsRowLengths(origin, origin - 1));
  std::vector<FtsRowLength> batch;
  auto complete = for_each_row_size(db, table, FtsIndexTotals::kNoRows, now.last_rowid,
                                    [&](int64_t rowid, const std::vector<int64_t>& columns) {
                                      batch.push_back({rowid, row_tokens(columns)});
                                      if (batch.size() < kChunkRows) return true;
                                      const bool kept = lengths->append(batch);
                                      batch.clear();
                                      return kept;
                                    });
  if (!complete.ok()) return complete.status();
  if (!*complete || !lengths->append(batch) || lengths->covers_ != now.last_rowid) {
    return std::shared_ptr<const FtsRowLengths>();
  }
  return std::shared_ptr<const FtsRowLengths>(std::move(lengths));
}

}  // namespace hermes::store
