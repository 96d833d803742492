// A small FTS5 corpus for the ranking tests: an external-content index over `docs` kept in
// sync by triggers, as the store's own index is, filled with words w0..w49 drawn so that
// low numbers are common (w0 is in about half of the rows) and high ones rare.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "store/sqlite_connection.hpp"
#include "support/temp_dir.hpp"
#include "unit/store/sqlite_test_support.hpp"

namespace hermes::testing {

inline void create_fts_corpus(store::Connection& c) {
  exec(c, R"sql(
CREATE TABLE docs(id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT, tag TEXT);
CREATE VIRTUAL TABLE docs_fts USING fts5(body, tag, content='docs', content_rowid='id');
CREATE TRIGGER docs_ai AFTER INSERT ON docs BEGIN
  INSERT INTO docs_fts(rowid, body, tag) VALUES (new.id, new.body, new.tag);
END;
CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
  INSERT INTO docs_fts(docs_fts, rowid, body, tag) VALUES ('delete', old.id, old.body, old.tag);
END;
CREATE TRIGGER docs_au AFTER UPDATE ON docs BEGIN
  INSERT INTO docs_fts(docs_fts, rowid, body, tag) VALUES ('delete', old.id, old.body, old.tag);
  INSERT INTO docs_fts(rowid, body, tag) VALUES (new.id, new.body, new.tag);
END;
)sql");
}

// Text of 3 to 24 words, Zipf-like over w0..w49.
inline std::string corpus_text(std::mt19937& rng) {
  std::vector<double> weights;
  for (int i = 0; i < 50; ++i) weights.push_back(1.0 / (i + 1));
  std::discrete_distribution<int> word(weights.begin(), weights.end());
  std::string text;
  const int words = 3 + static_cast<int>(rng() % 22);
  for (int i = 0; i < words; ++i) text += (i == 0 ? "w" : " w") + std::to_string(word(rng));
  return text;
}

inline void add_corpus_rows(store::Connection& c, std::mt19937& rng, int rows) {
  exec(c, "BEGIN");
  for (int i = 0; i < rows; ++i) {
    auto stmt = c.prepare("INSERT INTO docs(body, tag) VALUES (?, ?)");
    REQUIRE(stmt.ok());
    stmt->bind(1, corpus_text(rng)).bind(2, i % 5 == 0 ? std::string("w7 tagged") : "");
    REQUIRE(stmt->run().ok());
  }
  exec(c, "COMMIT");
}

// Rows of docs_fts matching `match`, counted by FTS5 itself.
inline int64_t fts_count(store::Connection& c, const std::string& match) {
  auto stmt = c.prepare_uncached("SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?");
  REQUIRE(stmt.ok());
  stmt->bind(1, match);
  auto row = stmt->step();
  REQUIRE(row.ok());
  return stmt->int64(0);
}

// A corpus in a file of its own: `rows` rows drawn from `seed`, in WAL mode when asked.
struct CorpusFile {
  TempDir dir;
  std::string path = dir.file("corpus.db");
  std::unique_ptr<store::Connection> c = raw_connection(path);
  std::mt19937 rng;

  CorpusFile(int rows, uint32_t seed, bool wal = false) : rng(seed) {
    if (wal) exec(*c, "PRAGMA journal_mode=WAL");
    create_fts_corpus(*c);
    if (rows > 0) add_corpus_rows(*c, rng, rows);
  }
};

}  // namespace hermes::testing
