// Phrase counts kept between queries: exact in every transaction while rows are appended,
// deleted and rewritten, and for readers on older snapshots.
#include "store/fts_ranking_cache.hpp"

#include <doctest/doctest.h>

#include <random>

#include "hermes/session_store.hpp"
#include "store/fts_phrases.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"
#include "unit/store/fts_corpus.hpp"
#include "unit/store/store_backends.hpp"

using hermes::store::Connection;
using hermes::store::FtsRankingCache;
using namespace hermes::testing;

namespace {

const std::vector<std::string> kPhrases = {"w0",  "w1",  "w7",      "tagged",    "\"w0 w1\"",
                                           "w1*", "w33", "nowhere", "\"w2 w3\"*"};

// The counts kept for kPhrases, checked against FTS5's own in the same transaction.
void check_counts(Connection& c, FtsRankingCache& frequencies) {
  exec(c, "BEGIN");
  auto stats = frequencies.statistics(c, "docs_fts", kPhrases);
  REQUIRE_MESSAGE(stats.ok(), stats.status().to_string());
  REQUIRE(stats->has_value());
  REQUIRE((*stats)->documents.size() == kPhrases.size());
  CHECK((*stats)->rows == std::stoll(query(c, "SELECT count(*) FROM docs")));
  for (std::size_t i = 0; i < kPhrases.size(); ++i) {
    CAPTURE(kPhrases[i]);
    CHECK((*stats)->documents[i] == fts_count(c, kPhrases[i]));
  }
  exec(c, "COMMIT");
}

// Every row's score with the kept counts and lengths, against bm25()'s.
void check_scores(Connection& c, FtsRankingCache& cache) {
  const std::string match = "w0 OR w1 OR w2 OR w7 OR tagged";
  exec(c, "BEGIN");
  auto stats = cache.statistics(c, "docs_fts", *hermes::store::fts_phrases(match));
  REQUIRE(stats.ok());
  REQUIRE(stats->has_value());
  const auto& s = **stats;
  std::string args = std::to_string(s.rows) + ", " + std::to_string(s.tokens);
  for (int64_t n : s.documents) args += ", " + std::to_string(n);
  hermes::store::FtsRankingSlot* slot = c.ranking_slot();
  slot->lengths = s.lengths.get();
  slot->length_lookups = 0;
  auto stmt = c.prepare_uncached("SELECT rowid, bm25(docs_fts), hermes_bm25(docs_fts, " + args +
                                 ") FROM docs_fts WHERE docs_fts MATCH ?");
  REQUIRE(stmt.ok());
  stmt->bind(1, match);
  int64_t rows = 0;
  for (;;) {
    auto row = stmt->step();
    REQUIRE(row.ok());
    if (!*row) break;
    ++rows;
    CAPTURE(stmt->int64(0));
    CHECK(stmt->real(2) == doctest::Approx(stmt->real(1)).epsilon(1e-12));
  }
  slot->lengths = nullptr;
  if (s.lengths != nullptr) CHECK(slot->length_lookups == 0);
  exec(c, "COMMIT");
  (void)rows;
}

std::string random_id(Connection& c, std::mt19937& rng) {
  const int64_t rows = std::stoll(query(c, "SELECT count(*) FROM docs"));
  if (rows == 0) return "0";
  return query(c, "SELECT id FROM docs LIMIT 1 OFFSET " + std::to_string(rng() % rows));
}

}  // namespace

TEST_CASE("kept counts stay exact while rows are appended, deleted and rewritten") {
  CorpusFile corpus(0, 11);
  auto& c = corpus.c;
  auto& rng = corpus.rng;
  FtsRankingCache frequencies(/*load_lengths_after=*/0);
  check_counts(*c, frequencies);  // An empty index.
  add_corpus_rows(*c, rng, 200);
  for (int step = 0; step < 150; ++step) {
    CAPTURE(step);
    switch (rng() % 10) {
      case 0:
        exec(*c, "DELETE FROM docs WHERE id = " + random_id(*c, rng));
        break;
      case 1:
        exec(*c, "DELETE FROM docs WHERE id = (SELECT max(id) FROM docs)");
        break;
      case 2:
        exec(*c,
             "UPDATE docs SET body = '" + corpus_text(rng) + "' WHERE id = " + random_id(*c, rng));
        break;
      case 3:
        break;  // Nothing changed: every count is used as kept.
      default:
        add_corpus_rows(*c, rng, 1 + static_cast<int>(rng() % 20));
        break;
    }
    check_counts(*c, frequencies);
    check_scores(*c, frequencies);
  }
  const auto counters = frequencies.counters();
  CHECK(counters.reused > 0);
  CHECK(counters.topped_up > 0);
  CHECK(counters.resets > 0);
  // Lengths are read again after each reset, and otherwise extended with the new rows.
  CHECK(counters.length_loads <= counters.resets + 1);
}

TEST_CASE("unchanged counts are reused and appended rows topped up, not counted again") {
  CorpusFile corpus(300, 3);
  auto& c = corpus.c;
  auto& rng = corpus.rng;
  FtsRankingCache frequencies;
  const auto n = static_cast<int64_t>(kPhrases.size());

  check_counts(*c, frequencies);
  CHECK(frequencies.counters().counted == n);
  check_counts(*c, frequencies);
  CHECK(frequencies.counters().reused == n);
  add_corpus_rows(*c, rng, 10);
  check_counts(*c, frequencies);
  CHECK(frequencies.counters().topped_up == n);
  CHECK(frequencies.counters().counted == n);

  exec(*c, "DELETE FROM docs WHERE id = 5");  // An old row: every count is taken again.
  check_counts(*c, frequencies);
  CHECK(frequencies.counters().resets == 1);
  CHECK(frequencies.counters().counted == 2 * n);
}

TEST_CASE("lengths are read once lookups have cost about as much, then kept up with appends") {
  CorpusFile corpus(800, 17);
  auto& c = corpus.c;
  auto& rng = corpus.rng;
  FtsRankingCache cache;  // Lengths after lookups of an eighth of the rows: 100.
  auto lengths_now = [&] {
    exec(*c, "BEGIN");
    auto stats = cache.statistics(*c, "docs_fts", {"w0"});
    exec(*c, "COMMIT");
    REQUIRE(stats.ok());
    REQUIRE(stats->has_value());
    return (*stats)->lengths;
  };
  CHECK(lengths_now() == nullptr);
  cache.record_length_lookups("docs_fts", 99);
  CHECK(lengths_now() == nullptr);
  cache.record_length_lookups("docs_fts", 1);
  const auto loaded = lengths_now();
  REQUIRE(loaded != nullptr);
  CHECK(loaded->covers() == std::stoll(query(*c, "SELECT max(id) FROM docs")));
  CHECK(cache.counters().length_loads == 1);

  add_corpus_rows(*c, rng, 3);
  const auto extended = lengths_now();
  REQUIRE(extended != nullptr);
  CHECK(extended->covers() == loaded->covers() + 3);
  CHECK(extended->find(loaded->covers() + 1) != hermes::store::FtsRowLengths::kUnknown);
  CHECK(loaded->find(loaded->covers() + 1) == hermes::store::FtsRowLengths::kUnknown);
  CHECK(cache.counters().length_loads == 1);

  exec(*c, "DELETE FROM docs WHERE id = 10");  // Dropped with everything else.
  CHECK(lengths_now() == nullptr);
  CHECK(extended->find(10) != hermes::store::FtsRowLengths::kUnknown);  // Still usable by holders.
}

TEST_CASE("a reader on an older snapshot gets the counts of its own snapshot") {
  CorpusFile corpus(200, 5, /*wal=*/true);
  auto& writer = corpus.c;
  auto& rng = corpus.rng;
  FtsRankingCache frequencies;
  check_counts(*writer, frequencies);

  auto old_reader = raw_connection(corpus.path);
  exec(*old_reader, "BEGIN");
  const std::string before = query(*old_reader, "SELECT count(*) FROM docs");
  add_corpus_rows(*writer, rng, 40);
  check_counts(*writer, frequencies);  // The kept counts move on to the new rows.

  auto stats = frequencies.statistics(*old_reader, "docs_fts", kPhrases);
  REQUIRE(stats.ok());
  REQUIRE(stats->has_value());
  CHECK(std::to_string((*stats)->rows) == before);
  for (std::size_t i = 0; i < kPhrases.size(); ++i) {
    CAPTURE(kPhrases[i]);
    CHECK((*stats)->documents[i] == fts_count(*old_reader, kPhrases[i]));
  }
  exec(*old_reader, "COMMIT");
  check_counts(*writer, frequencies);  // The newer state's counts were not disturbed.
  check_counts(*old_reader, frequencies);
}

TEST_CASE("no counts are kept outside a transaction or for an index without size records") {
  CorpusFile corpus(20, 9);
  auto& c = corpus.c;
  FtsRankingCache frequencies;
  auto outside = frequencies.statistics(*c, "docs_fts", {"w0"});
  REQUIRE(outside.ok());
  CHECK_FALSE(outside->has_value());

  exec(*c, "CREATE VIRTUAL TABLE bare USING fts5(body, columnsize=0)");
  exec(*c, "INSERT INTO bare(body) VALUES ('w0 w1')");
  exec(*c, "BEGIN");
  auto bare = frequencies.statistics(*c, "bare", {"w0"});
  exec(*c, "COMMIT");
  REQUIRE(bare.ok());
  CHECK_FALSE(bare->has_value());
}

TEST_CASE("a phrase FTS5 rejects is an error, never a count") {
  CorpusFile corpus(20, 9);
  auto& c = corpus.c;
  FtsRankingCache frequencies;
  exec(*c, "BEGIN");
  CHECK_FALSE(frequencies.statistics(*c, "docs_fts", {"nosuchcolumn: w0"}).ok());
  CHECK_FALSE(frequencies.statistics(*c, "docs_fts", {"\"open"}).ok());
  exec(*c, "COMMIT");
}

TEST_CASE("the store's search ranks as bm25() does while messages come and go") {
  SqliteFileBackend backend;
  std::mt19937 rng(21);
  for (int s = 0; s < 6; ++s) {
    const std::string id = "s" + std::to_string(s);
    create(*backend.store, id);
    std::vector<hermes::Message> turn;
    for (int m = 0; m < 40; ++m) turn.push_back(hermes::Message::user(corpus_text(rng)));
    REQUIRE(backend.store->append_messages(id, turn).ok());
  }
  auto c = raw_connection(backend.path);
  auto check_ranks = [&](const std::string& query_text) {
    CAPTURE(query_text);
    hermes::SearchOptions options;
    options.limit = 10;
    auto hits = search_of(backend.store).search(query_text, options);
    REQUIRE_MESSAGE(hits.ok(), hits.status().to_string());
    REQUIRE(!hits->empty());
    for (const auto& hit : *hits) {
      const std::string builtin =
          query(*c,
                "SELECT printf('%.17g', bm25(messages_fts)) FROM messages_fts WHERE "
                "messages_fts MATCH '" +
                    query_text + "' AND rowid = " + std::to_string(hit.message_id));
      CHECK(hit.rank == doctest::Approx(std::stod(builtin)).epsilon(1e-12));
    }
  };
  for (int round = 0; round < 3; ++round) {
    check_ranks("w0");
    check_ranks("w1 w3");
    check_ranks("w2 OR w40");
    REQUIRE(backend.store->append_messages("s1", {hermes::Message::user("w0 w1 w3 w2")}).ok());
  }
  REQUIRE(backend.store->delete_session("s2").ok());
  check_ranks("w0");
  check_ranks("w1 w3");
}
