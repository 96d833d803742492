// hermes_bm25: the score of FTS5's bm25() from document counts given by the caller.
#include "store/fts_bm25.hpp"

#include <doctest/doctest.h>

#include <random>

#include "store/fts_phrases.hpp"
#include "store/fts_ranking_cache.hpp"
#include "support/temp_dir.hpp"
#include "unit/store/fts_corpus.hpp"

using hermes::store::Connection;
using hermes::store::fts_phrases;
using hermes::store::FtsRankingCache;
using namespace hermes::testing;

namespace {

struct Scored {
  int64_t rowid = 0;
  double builtin = 0;
  double ours = 0;
};

// Every match of `match` with bm25() and hermes_bm25(docs_fts, <arguments>).
std::vector<Scored> score(Connection& c, const std::string& match, const std::string& arguments) {
  auto stmt = c.prepare_uncached("SELECT rowid, bm25(docs_fts), hermes_bm25(docs_fts" + arguments +
                                 ") FROM docs_fts WHERE docs_fts MATCH ?");
  REQUIRE_MESSAGE(stmt.ok(), stmt.status().to_string());
  stmt->bind(1, match);
  std::vector<Scored> rows;
  for (;;) {
    auto row = stmt->step();
    REQUIRE_MESSAGE(row.ok(), row.status().to_string());
    if (!*row) return rows;
    rows.push_back({stmt->int64(0), stmt->real(1), stmt->real(2)});
  }
}

std::string arguments(const FtsRankingCache::Statistics& s) {
  std::string out = ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens);
  for (int64_t n : s.documents) out += ", " + std::to_string(n);
  return out;
}

struct Corpus : CorpusFile {
  Corpus() : CorpusFile(600, 7) { REQUIRE(c->ranking_slot() != nullptr); }
};

const std::vector<std::string> kQueries = {"w0",
                                           "w1 w2",
                                           "w0 OR w30",
                                           "w3 NOT w0",
                                           "\"w0 w1\"",
                                           "w1*",
                                           "w5 w5",
                                           "w2 AND \"w0 w3\"*",
                                           "w7",
                                           "tagged w4",
                                           "w49 OR w48",
                                           "w0 w1 w2 w3 w4 w5",
                                           "\"w9\" OR \"w10 w11\"",
                                           "nowhere OR w6"};

}  // namespace

TEST_CASE("with the counts of each phrase hermes_bm25 scores every match as bm25() does") {
  Corpus corpus;
  FtsRankingCache frequencies;
  for (const std::string& match : kQueries) {
    CAPTURE(match);
    exec(*corpus.c, "BEGIN");
    auto stats = frequencies.statistics(*corpus.c, "docs_fts", *fts_phrases(match));
    REQUIRE_MESSAGE(stats.ok(), stats.status().to_string());
    REQUIRE(stats->has_value());
    const auto rows = score(*corpus.c, match, arguments(**stats));
    exec(*corpus.c, "COMMIT");
    CHECK(!rows.empty());
    for (const Scored& row : rows) {
      CAPTURE(row.rowid);
      CHECK(row.ours == doctest::Approx(row.builtin).epsilon(1e-12));
    }
  }
}

TEST_CASE("with every row's length in memory the scores are the same and no length is looked up") {
  Corpus corpus;
  FtsRankingCache cache(/*load_lengths_after=*/0);
  hermes::store::FtsRankingSlot* slot = corpus.c->ranking_slot();
  for (const std::string& match : kQueries) {
    CAPTURE(match);
    exec(*corpus.c, "BEGIN");
    auto stats = cache.statistics(*corpus.c, "docs_fts", *fts_phrases(match));
    REQUIRE(stats.ok());
    REQUIRE(stats->has_value());
    REQUIRE((*stats)->lengths != nullptr);
    slot->lengths = (*stats)->lengths.get();
    slot->length_lookups = 0;
    const auto rows = score(*corpus.c, match, arguments(**stats));
    slot->lengths = nullptr;
    exec(*corpus.c, "COMMIT");
    // bm25() looks each length up through the same slot-less path: only ours is counted.
    CHECK(slot->length_lookups == 0);
    for (const Scored& row : rows) {
      CAPTURE(row.rowid);
      CHECK(row.ours == doctest::Approx(row.builtin).epsilon(1e-12));
    }
  }
  CHECK(cache.counters().length_loads == 1);
}

TEST_CASE("without lengths in memory each match's length is looked up, and counted") {
  Corpus corpus;
  hermes::store::FtsRankingSlot* slot = corpus.c->ranking_slot();
  slot->length_lookups = 0;
  const auto rows = score(*corpus.c, "w3", "");
  CHECK(slot->length_lookups == static_cast<int64_t>(rows.size()));
}

TEST_CASE("the counts given are the ones used") {
  Corpus corpus;
  exec(*corpus.c, "BEGIN");
  FtsRankingCache frequencies;
  auto stats = frequencies.statistics(*corpus.c, "docs_fts", {"w0"});
  REQUIRE(stats.ok());
  REQUIRE(stats->has_value());
  // w0 is in about half the rows; claiming it is in one makes it a rare, heavy word.
  auto claimed = **stats;
  REQUIRE(claimed.documents.front() > 200);
  claimed.documents = {1};
  const auto rows = score(*corpus.c, "w0", arguments(claimed));
  exec(*corpus.c, "COMMIT");
  REQUIRE(!rows.empty());
  for (const Scored& row : rows) CHECK(row.ours < row.builtin - 1.0);  // Lower is better.
}

TEST_CASE("arguments that do not describe the index are ignored: hermes_bm25 counts itself") {
  Corpus corpus;
  exec(*corpus.c, "BEGIN");
  FtsRankingCache frequencies;
  auto stats = frequencies.statistics(*corpus.c, "docs_fts", {"w1", "w2"});
  REQUIRE(stats.ok());
  REQUIRE(stats->has_value());
  const auto& s = **stats;
  const std::string counts = ", " + std::to_string(s.documents[0]) + ", 1";
  const std::vector<std::string> wrong = {
      "",  // No arguments.
      ", " + std::to_string(s.rows + 1) + ", " + std::to_string(s.tokens) + counts,   // Rows.
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens + 1) + counts,   // Tokens.
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens) + ", 1",        // Too few.
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens) + ", 1, 1, 1",  // Too many.
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens) + ", -1, 1",    // Negative.
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens) + ", 1, 100000",
      ", " + std::to_string(s.rows) + ", " + std::to_string(s.tokens) + ", 'one', 1",
      ", NULL, NULL, NULL, NULL"};
  for (const std::string& args : wrong) {
    CAPTURE(args);
    const auto rows = score(*corpus.c, "w1 w2", args);
    REQUIRE(!rows.empty());
    for (const Scored& row : rows) CHECK(row.ours == doctest::Approx(row.builtin).epsilon(1e-12));
  }
  exec(*corpus.c, "COMMIT");
}
