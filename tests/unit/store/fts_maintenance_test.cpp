// Bounded FTS5 merges: what they do to a fragmented index, how failures end quietly, and
// the store running them every 1,000th write.
#include "store/fts_maintenance.hpp"

#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::store::FtsMaintenance;
using hermes::testing::create;
using hermes::testing::exec;
using hermes::testing::query;
using hermes::testing::raw_connection;
using hermes::testing::search_of;
using hermes::testing::SqliteFileBackend;

namespace {

std::string segments(hermes::store::Connection& c) {
  return query(c, "SELECT count(DISTINCT segid) FROM messages_fts_idx");
}

std::string usermerge(hermes::store::Connection& c) {
  return query(c, "SELECT v FROM messages_fts_config WHERE k = 'usermerge'");
}

// Appends `turns` one-message turns, each a segment of its own while automerge is off.
void append_numbered_turns(hermes::SessionStore& store, int turns, int first = 0) {
  for (int i = first; i < first + turns; ++i) {
    REQUIRE(store.append_messages("s1", {Message::user("shared turn" + std::to_string(i))}).ok());
  }
}

}  // namespace

TEST_CASE("bounded merges bring a fragmented word index back together") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  auto c = raw_connection(backend.path);
  exec(*c, "INSERT INTO messages_fts(messages_fts, rank) VALUES('automerge', 0)");
  append_numbered_turns(*backend.store, 12);
  REQUIRE(segments(*c) == "12");
  REQUIRE(usermerge(*c).empty());

  FtsMaintenance maintenance({"messages_fts"});
  const int commands = maintenance.run(*c);
  CHECK(commands >= 1);
  CHECK(commands <= hermes::store::kFtsMergeCommands);
  CHECK(std::stoi(segments(*c)) < 12);
  CHECK(usermerge(*c) == "2");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());

  // Passes until nothing is left to merge: one segment, and a pass that finds no work runs
  // one command and stops.
  for (int pass = 0; pass < 10 && segments(*c) != "1"; ++pass) maintenance.run(*c);
  CHECK(segments(*c) == "1");
  CHECK(maintenance.run(*c) == 1);

  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'shared'") == "12");
  auto hits = search_of(backend.store).search("turn11");
  REQUIRE(hits.ok());
  CHECK(hits->size() == 1);
}

TEST_CASE("a merge that cannot run is logged and ends the pass quietly") {
  SqliteFileBackend backend;
  auto c = raw_connection(backend.path);
  FtsMaintenance missing({"no_such_index"});
  CHECK(missing.run(*c) == 0);

  // The write lock held by another connection: the merge gives up after the busy timeout.
  create(*backend.store, "s1");
  append_numbered_turns(*backend.store, 3);
  auto holder = raw_connection(backend.path);
  exec(*holder, "BEGIN IMMEDIATE");
  sqlite3_busy_timeout(c->handle(), 10);
  FtsMaintenance blocked({"messages_fts"});
  CHECK(blocked.run(*c) == 0);
  CHECK(usermerge(*c).empty());
  exec(*holder, "ROLLBACK");
  CHECK(blocked.run(*c) >= 1);
  CHECK(usermerge(*c) == "2");  // Tried again on the next pass.
}

TEST_CASE("the store merges its indexes on every 1,000th write") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  {
    auto c = raw_connection(backend.path);
    exec(*c, "INSERT INTO messages_fts(messages_fts, rank) VALUES('automerge', 0)");
  }
  // Opening the store and creating the session were writes too: the pass comes within the
  // first 1,000 appends, and not in the first 990.
  append_numbered_turns(*backend.store, 990);
  auto c = raw_connection(backend.path);
  CHECK(usermerge(*c).empty());
  const int before = std::stoi(segments(*c));
  append_numbered_turns(*backend.store, 10, 990);
  CHECK(usermerge(*c) == "2");
  CHECK(std::stoi(segments(*c)) < before);
  CHECK(query(*c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'shared'") == "1000");
}
