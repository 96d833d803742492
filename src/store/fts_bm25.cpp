#include "store/fts_bm25.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <vector>

#include "store/fts_row_lengths.hpp"

namespace hermes::store {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

// What one query's score needs besides the row: kept by FTS5 as the query's aux data.
struct QueryWeights {
  std::vector<double> idf;        // Per phrase.
  std::vector<double> frequency;  // Scratch space for the current row, per phrase.
  double average_length = 0;      // Tokens per row over the whole index.
  bool counts_given = false;      // The caller's counts describe this index.
};

void destroy_weights(void* weights) {
  delete static_cast<QueryWeights*>(weights);
}

int count_document(const Fts5ExtensionApi*, Fts5Context*, void* counter) {
  ++*static_cast<sqlite3_int64*>(counter);
  return SQLITE_OK;
}

double inverse_document_frequency(sqlite3_int64 rows, sqlite3_int64 documents) {
  const double idf = std::log((static_cast<double>(rows - documents) + 0.5) /
                              (static_cast<double>(documents) + 0.5));
  return idf > 0 ? idf : 1e-6;  // A phrase in most rows still counts, a little.
}

bool is_integer(sqlite3_value* value) {
  return sqlite3_value_type(value) == SQLITE_INTEGER;
}

// Whether the arguments describe this index as the query sees it: both totals equal and
// one count per phrase.
bool counts_given(int argc, sqlite3_value** argv, int phrases, sqlite3_int64 rows,
                  sqlite3_int64 tokens) {
  if (argc != phrases + 2 || !is_integer(argv[0]) || !is_integer(argv[1])) return false;
  if (sqlite3_value_int64(argv[0]) != rows || sqlite3_value_int64(argv[1]) != tokens) {
    return false;
  }
  for (int i = 2; i < argc; ++i) {
    if (!is_integer(argv[i])) return false;
    const sqlite3_int64 documents = sqlite3_value_int64(argv[i]);
    if (documents < 0 || documents > rows) return false;
  }
  return true;
}

int compute_weights(const Fts5ExtensionApi* api, Fts5Context* fts, int argc, sqlite3_value** argv,
                    QueryWeights& weights) {
  sqlite3_int64 rows = 0;
  sqlite3_int64 tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc != SQLITE_OK) return rc;
  const int phrases = api->xPhraseCount(fts);
  const bool given = counts_given(argc, argv, phrases, rows, tokens);
  weights.counts_given = given;
  const sqlite3_int64 divisor = rows > 0 ? rows : 1;
  weights.average_length = static_cast<double>(tokens) / static_cast<double>(divisor);
  weights.idf.assign(static_cast<std::size_t>(phrases), 0);
  weights.frequency.assign(static_cast<std::size_t>(phrases), 0);
  for (int i = 0; i < phrases; ++i) {
    sqlite3_int64 documents = 0;
    if (given) {
      documents = sqlite3_value_int64(argv[i + 2]);
    } else {
      rc = api->xQueryPhrase(fts, i, &documents, count_document);
      if (rc != SQLITE_OK) return rc;
    }
    weights.idf[static_cast<std::size_t>(i)] = inverse_document_frequency(divisor, documents);
  }
  return SQLITE_OK;
}

// The query's weights, computed on its first row.
int query_weights(const Fts5ExtensionApi* api, Fts5Context* fts, int argc, sqlite3_value** argv,
                  QueryWeights** out) {
  *out = static_cast<QueryWeights*>(api->xGetAuxdata(fts, 0));
  if (*out != nullptr) return SQLITE_OK;
  auto* weights = new QueryWeights;
  const int rc = compute_weights(api, fts, argc, argv, *weights);
  if (rc != SQLITE_OK) {
    delete weights;
    return rc;
  }
  *out = weights;
  return api->xSetAuxdata(fts, weights, destroy_weights);  // Frees `weights` on failure.
}

// The current row's tokens: from the slot's lengths when the caller's counts hold (they
// were taken with them), otherwise from the index.
int row_length(const Fts5ExtensionApi* api, Fts5Context* fts, const QueryWeights& weights,
               int* length) {
  auto* slot = static_cast<FtsRankingSlot*>(api->xUserData(fts));
  if (slot != nullptr && slot->lengths != nullptr && weights.counts_given) {
    const uint32_t known = slot->lengths->find(api->xRowid(fts));
    if (known != FtsRowLengths::kUnknown) {
      *length = static_cast<int>(known);
      return SQLITE_OK;
    }
  }
  if (slot != nullptr) ++slot->length_lookups;
  return api->xColumnSize(fts, -1, length);
}

int score_row(const Fts5ExtensionApi* api, Fts5Context* fts, QueryWeights& weights, double* score) {
  std::fill(weights.frequency.begin(), weights.frequency.end(), 0.0);
  int instances = 0;
  int rc = api->xInstCount(fts, &instances);
  for (int i = 0; rc == SQLITE_OK && i < instances; ++i) {
    int phrase = 0;
    int column = 0;
    int offset = 0;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK) weights.frequency[static_cast<std::size_t>(phrase)] += 1;
  }
  int length = 0;
  if (rc == SQLITE_OK) rc = row_length(api, fts, weights, &length);
  if (rc != SQLITE_OK) return rc;
  const double norm = kK1 * (1 - kB + kB * length / weights.average_length);
  double sum = 0;
  for (std::size_t i = 0; i < weights.idf.size(); ++i) {
    const double f = weights.frequency[i];
    sum += weights.idf[i] * ((f * (kK1 + 1.0)) / (f + norm));
  }
  *score = -sum;  // Lower is better, as with FTS5's bm25().
  return SQLITE_OK;
}

void hermes_bm25(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                 sqlite3_value** argv) {
  try {
    QueryWeights* weights = nullptr;
    int rc = query_weights(api, fts, argc, argv, &weights);
    double score = 0;
    if (rc == SQLITE_OK) rc = score_row(api, fts, *weights, &score);
    if (rc == SQLITE_OK) {
      sqlite3_result_double(ctx, score);
    } else {
      sqlite3_result_error_code(ctx, rc);
    }
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

// The FTS5 API of `db`, the documented way: the fts5() SQL function hands it out through a
// pointer parameter. Null without FTS5.
fts5_api* fts5_api_of(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  return api;
}

}  // namespace

bool register_ranking_function(sqlite3* db, FtsRankingSlot* slot) {
  fts5_api* api = fts5_api_of(db);
  if (api == nullptr || api->iVersion < 2) return false;
  return api->xCreateFunction(api, kRankingFunction, slot, hermes_bm25, nullptr) == SQLITE_OK;
}

}  // namespace hermes::store
