#include "store/fts_ranking_cache.hpp"

#include <algorithm>

namespace hermes::store {
namespace {

constexpr std::size_t kChainLength = 32;  // Index states remembered per table.
constexpr std::size_t kMaxCounts = 4096;  // Phrase counts kept per table.
// Rows added since a known state that are read to check the totals; beyond this the
// counts are simply taken again.
constexpr int64_t kMaxRowsToCheck = 20'000;

Result<int64_t> count_matches(Connection& db, const std::string& table, const std::string& phrase,
                              int64_t after_rowid) {
  const std::string quoted = "\"" + table + "\"";
  auto stmt =
      db.prepare("SELECT count(*) FROM " + quoted + " WHERE " + quoted + " MATCH ? AND rowid > ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, phrase).bind(2, after_rowid);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  return *row ? stmt->int64(0) : 0;
}

template <typename Map>
void evict_least_used(Map& counts, uint64_t epoch) {
  std::erase_if(counts, [epoch](const auto& entry) { return entry.second.epoch != epoch; });
  if (counts.size() <= kMaxCounts) return;
  std::vector<uint64_t> used;
  used.reserve(counts.size());
  for (const auto& entry : counts) used.push_back(entry.second.used);
  auto middle = used.begin() + static_cast<std::ptrdiff_t>(used.size() / 2);
  std::nth_element(used.begin(), middle, used.end());
  const uint64_t cutoff = *middle;
  std::erase_if(counts, [cutoff](const auto& entry) { return entry.second.used <= cutoff; });
}

}  // namespace

Result<FtsRankingCache::Footing> FtsRankingCache::find_footing(Connection& db,
                                                               const std::string& table,
                                                               Table& cache,
                                                               const FtsIndexTotals& now) {
  auto restart = [&]() -> Footing {
    if (!cache.chain.empty()) ++counters_.resets;
    ++cache.epoch;
    cache.chain.assign(1, now);
    cache.lengths = nullptr;
    cache.length_lookups = 0;
    return {cache.epoch, now.last_rowid, true};
  };
  if (cache.chain.empty()) return restart();
  // The newest known state this transaction can have grown from.
  auto after = std::upper_bound(
      cache.chain.begin(), cache.chain.end(), now.last_rowid,
      [](int64_t rowid, const FtsIndexTotals& state) { return rowid < state.last_rowid; });
  if (after == cache.chain.begin()) {
    return Footing{cache.epoch, FtsIndexTotals::kNoRows, false};  // Older than all of them.
  }
  const FtsIndexTotals base = *(after - 1);
  const bool newest = after == cache.chain.end();
  if (base == now) return Footing{cache.epoch, now.last_rowid, newest};
  auto added = read_rows_after(db, table, base.last_rowid, kMaxRowsToCheck);
  if (!added.ok()) return added.status();
  if (*added && base + (*added)->totals == now) {
    if (!newest) return Footing{cache.epoch, base.last_rowid, false};
    cache.chain.push_back(now);
    if (cache.chain.size() > kChainLength) cache.chain.erase(cache.chain.begin());
    const bool extendable = cache.lengths && cache.lengths->covers() == base.last_rowid;
    cache.lengths = extendable ? cache.lengths->extended((*added)->rows) : nullptr;
    return Footing{cache.epoch, base.last_rowid, true};
  }
  // Rows were deleted or rewritten (or too many added to check).
  if (newest) return restart();
  return Footing{cache.epoch, FtsIndexTotals::kNoRows, false};
}

void FtsRankingCache::store(Table& cache, const Footing& footing, const FtsIndexTotals& now,
                            const std::vector<std::string>& phrases,
                            const std::vector<int64_t>& documents) {
  if (!footing.newest || footing.epoch != cache.epoch) return;
  for (std::size_t i = 0; i < phrases.size(); ++i) {
    Count& count = cache.counts[phrases[i]];
    if (count.epoch == footing.epoch && count.covers > now.last_rowid) continue;
    count = Count{footing.epoch, now.last_rowid, documents[i], lookups_};
  }
  if (cache.counts.size() > kMaxCounts) evict_least_used(cache.counts, cache.epoch);
}

Result<std::vector<int64_t>> FtsRankingCache::count_phrases(
    Connection& db, const std::string& table, const std::vector<std::string>& phrases,
    const FtsIndexTotals& now, const std::vector<std::optional<Count>>& kept) {
  std::vector<int64_t> documents;
  Counters counted;
  for (std::size_t i = 0; i < phrases.size(); ++i) {
    if (kept[i] && kept[i]->covers == now.last_rowid) {
      documents.push_back(kept[i]->documents);
      ++counted.reused;
      continue;
    }
    const int64_t after = kept[i] ? kept[i]->covers : FtsIndexTotals::kNoRows;
    auto added = count_matches(db, table, phrases[i], after);
    if (!added.ok()) return added.status();
    documents.push_back((kept[i] ? kept[i]->documents : 0) + *added);
    ++(kept[i] ? counted.topped_up : counted.counted);
  }
  std::lock_guard lock(mutex_);
  counters_.reused += counted.reused;
  counters_.topped_up += counted.topped_up;
  counters_.counted += counted.counted;
  return documents;
}

Result<std::optional<FtsRankingCache::Statistics>> FtsRankingCache::statistics(
    Connection& db, const std::string& table, const std::vector<std::string>& phrases) {
  // Outside a transaction each statement would see its own snapshot of the index.
  if (sqlite3_get_autocommit(db.handle()) != 0) return std::optional<Statistics>();
  auto read = read_index_totals(db, table);
  if (!read.ok()) return read.status();
  if (!read->has_value()) return std::optional<Statistics>();
  const FtsIndexTotals& now = **read;

  Footing footing;
  std::vector<std::optional<Count>> kept(phrases.size());
  Statistics stats{now.rows, now.total_tokens(), {}, nullptr};
  bool load_lengths = false;
  {
    std::lock_guard lock(mutex_);
    Table& cache = tables_[table];
    auto found = find_footing(db, table, cache, now);
    if (!found.ok()) return found.status();
    footing = *found;
    ++lookups_;
    for (std::size_t i = 0; i < phrases.size(); ++i) {
      auto it = cache.counts.find(phrases[i]);
      if (it == cache.counts.end()) continue;
      Count& count = it->second;
      if (count.epoch != footing.epoch || count.covers > footing.valid_up_to) continue;
      count.used = lookups_;
      kept[i] = count;
    }
    if (footing.newest && cache.lengths && cache.lengths->covers() == now.last_rowid) {
      stats.lengths = cache.lengths;
    }
    load_lengths = footing.newest && !stats.lengths && now.rows > 0 &&
                   static_cast<double>(cache.length_lookups) >=
                       load_lengths_after_ * static_cast<double>(now.rows);
  }

  auto documents = count_phrases(db, table, phrases, now, kept);
  if (!documents.ok()) return documents.status();
  stats.documents = std::move(*documents);
  if (load_lengths) {
    auto loaded = FtsRowLengths::load(db, table, now);
    if (!loaded.ok()) return loaded.status();
    stats.lengths = *loaded;
  }

  std::lock_guard lock(mutex_);
  Table& cache = tables_[table];
  store(cache, footing, now, phrases, stats.documents);
  if (load_lengths && footing.epoch == cache.epoch && cache.chain.back() == now) {
    ++counters_.length_loads;
    cache.lengths = stats.lengths;
    cache.length_lookups = 0;
  }
  return std::optional(std::move(stats));
}

void FtsRankingCache::record_length_lookups(const std::string& table, int64_t lookups) {
  std::lock_guard lock(mutex_);
  tables_[table].length_lookups += lookups;
}

FtsRankingCache::Counters FtsRankingCache::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

}  // namespace hermes::store
