// bm25 for the store's full-text indexes, with the document counts supplied by the caller.
//
// FTS5's own bm25() counts, on every query, the documents holding each phrase by walking
// the phrase's whole doclist; for a word found in 400,000 messages that is most of the
// query's time. hermes_bm25(table, rows, tokens, n0, n1, ...) gives the same score (the
// formula FTS5 documents for bm25: k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5))
// raised to 1e-6 when not positive) from counts n0, n1, ... given per phrase in query
// order (FtsRankingCache keeps them between queries). `rows` and `tokens` are the
// index totals the counts were taken against: when they, or the number of counts, differ
// from what the index says, the function counts for itself, so a stale argument costs
// time, never a wrong score.
//
// Each match's length in tokens comes from the connection's slot when the caller put row
// lengths there for the query (FtsRowLengths), and otherwise from the index, one lookup
// per match (counted in the slot, so the caller can tell when keeping lengths would pay).
#pragma once

#include <sqlite3.h>

#include "store/fts_ranking_slot.hpp"

namespace hermes::store {

inline constexpr const char* kRankingFunction = "hermes_bm25";

// Registers hermes_bm25 on `db`, reading `slot` (which must outlive the connection). False
// when this SQLite has no FTS5 (search then uses the built-in bm25, or no index at all).
bool register_ranking_function(sqlite3* db, FtsRankingSlot* slot);

}  // namespace hermes::store
