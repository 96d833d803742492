// What hermes_bm25 (fts_bm25.hpp) on one connection may use for the query running on it.
#pragma once

#include <cstdint>

namespace hermes::store {

class FtsRowLengths;

// Set by the connection's user around a ranking query; only that thread touches it.
struct FtsRankingSlot {
  const FtsRowLengths* lengths = nullptr;  // Used only with counts that match the index.
  int64_t length_lookups = 0;              // Lengths read from the index, one match at a time.
};

}  // namespace hermes::store
