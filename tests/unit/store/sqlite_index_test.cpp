// The SQLite store's full-text indexes: kept in sync by triggers that ignore flag-only
// updates, rebuilt when added to an existing file, bypassed when marked stale.
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SqliteStoreOptions;
using hermes::testing::create;
using hermes::testing::exec;
using hermes::testing::query;
using hermes::testing::raw_connection;
using hermes::testing::search_of;
using hermes::testing::SqliteFileBackend;

TEST_CASE("updating only a message's flags does not touch the full-text index") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  REQUIRE(
      backend.store->append_messages("s1", {Message::user("alpha beta"), Message::user("gamma")})
          .ok());
  auto c = raw_connection(backend.path);
  const std::string before =
      query(*c, "SELECT count(*) || ':' || max(rowid) FROM messages_fts_data");

  exec(*c, "UPDATE messages SET active = 0, compacted = 1, observed = 1");
  CHECK(query(*c, "SELECT count(*) || ':' || max(rowid) FROM messages_fts_data") == before);
  exec(*c, "UPDATE messages SET content = content WHERE 1");  // Unchanged values: WHEN is false.
  CHECK(query(*c, "SELECT count(*) || ':' || max(rowid) FROM messages_fts_data") == before);

  // A real content change does reach the index, so the checks above can fail.
  exec(*c, "UPDATE messages SET content = 'delta' WHERE content = 'gamma'");
  CHECK(query(*c, "SELECT count(*) || ':' || max(rowid) FROM messages_fts_data") != before);
  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'delta'") == "1");
  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'gamma'") == "0");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
}

// FTS5 writes what it holds in memory out as a new segment whenever a statement in the
// transaction opens a savepoint; a row per statement made a segment per row.
TEST_CASE("a turn reaches the word index as one segment") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  auto c = raw_connection(backend.path);
  // No merging, so every segment written stays visible.
  exec(*c, "INSERT INTO messages_fts(messages_fts, rank) VALUES('automerge', 0)");
  const auto segments = [&] {
    return query(*c, "SELECT count(DISTINCT segid) FROM messages_fts_idx");
  };
  REQUIRE(segments() == "0");

  std::vector<Message> turn;
  for (int i = 0; i < 10; ++i) turn.push_back(Message::user("turn word" + std::to_string(i)));
  REQUIRE(backend.store->append_messages("s1", turn).ok());
  CHECK(segments() == "1");
  REQUIRE(backend.store->append_messages("s1", turn).ok());
  CHECK(segments() == "2");

  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'turn'") == "20");
  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'word9'") == "2");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
}

TEST_CASE("only the head of a long tool result is indexed") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  const std::string output = std::string(9000, 'x') + " needle";
  REQUIRE(backend.store->append_messages("s1", {Message::tool("c1", "shell", output)}).ok());
  CHECK(search_of(backend.store).search("needle")->empty());
  hermes::SearchOptions tools;
  tools.roles = {"tool"};
  CHECK(search_of(backend.store).search("needle", tools)->size() == 1);
}

TEST_CASE("full-text hits are ranked by bm25") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  REQUIRE(
      backend.store
          ->append_messages("s1", {Message::user("kiwi"), Message::user("kiwi kiwi kiwi banana")})
          .ok());
  auto hits = search_of(backend.store).search("kiwi");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 2);
  CHECK((*hits)[0].rank < 0);
  CHECK((*hits)[0].rank <= (*hits)[1].rank);
}

TEST_CASE("search falls back to a substring scan while the indexes are marked stale") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", {Message::user("Photosynthesis needs light")}).ok());
  {
    auto c = raw_connection(backend.path);
    exec(*c, "INSERT INTO state_meta(key, value) VALUES ('fts_stale', '1')");
    exec(*c, "DELETE FROM messages_fts");  // What a detached, untrustworthy index may hold.
  }
  auto hits = search_of(backend.store).search("photosynthesis");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].rank == 0);
  CHECK((*hits)[0].snippet == ">>>Photosynthesis<<< needs light");
}

TEST_CASE("a trigram index added to an existing database covers its old messages") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", {Message::user("我喜欢机器学习")}).ok());
  backend.store.reset();

  SqliteStoreOptions trigram;
  trigram.trigram_index = true;
  auto store = backend.open(trigram);
  auto hits = search_of(store).search("机器学习");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].rank < 0);
  auto c = raw_connection(backend.path);
  CHECK(c->exec("INSERT INTO messages_fts_trigram(messages_fts_trigram, rank) "
                "VALUES('integrity-check', 1)")
            .ok());
}

TEST_CASE("missing sync triggers are restored and the index rebuilt on open") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  backend.store.reset();
  {
    // What a runtime without FTS5 leaves behind: rows written with the triggers dropped.
    auto c = raw_connection(backend.path);
    exec(*c, "DROP TRIGGER messages_fts_insert");
    exec(*c,
         "INSERT INTO messages (session_id, role, content, timestamp) "
         "VALUES ('s1', 'user', 'written while unindexed', 1750000000)");
  }
  auto store = backend.open();
  auto hits = search_of(store).search("unindexed");
  REQUIRE(hits.ok());
  CHECK(hits->size() == 1);
  REQUIRE(store->append_messages("s1", {Message::user("indexed again")}).ok());
  CHECK(search_of(store).search("again")->size() == 1);
  auto c = raw_connection(backend.path);
  CHECK(query(*c, "SELECT count(*) FROM sqlite_master WHERE name = 'messages_fts_insert'") == "1");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
}

// A prefix query reads its hits with one statement (sqlite_search.cpp); what it returns
// must be what the one word the prefix covers returns, hit for hit.
TEST_CASE("a prefix search returns what the word it completes returns") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  create(*backend.store, "s2");
  for (int i = 0; i < 24; ++i) {
    // Every third row matches, with 1 to 4 mentions, between rows that do not.
    std::string text = "filler " + std::to_string(i);
    if (i % 3 == 0) {
      text = "about";
      for (int k = 0; k <= (i / 3) % 4; ++k) text += " zymurgy";
      text += " and more words " + std::to_string(i);
    }
    REQUIRE(backend.store->append_messages(i % 2 == 0 ? "s1" : "s2", {Message::user(text)}).ok());
  }
  for (int offset : {0, 3}) {
    hermes::SearchOptions page;
    page.limit = 4;
    page.offset = offset;
    auto word = search_of(backend.store).search("zymurgy", page);
    auto prefix = search_of(backend.store).search("zymu*", page);
    REQUIRE(word.ok());
    REQUIRE(prefix.ok());
    REQUIRE(word->size() == 4);
    REQUIRE(prefix->size() == word->size());
    for (std::size_t i = 0; i < word->size(); ++i) {
      CHECK((*prefix)[i].message_id == (*word)[i].message_id);
      CHECK((*prefix)[i].rank == doctest::Approx((*word)[i].rank));
      CHECK((*prefix)[i].session_id == (*word)[i].session_id);
      CHECK((*prefix)[i].snippet == (*word)[i].snippet);
      CHECK((*prefix)[i].snippet.find(">>>zymurgy<<<") != std::string::npos);
    }
  }
}
