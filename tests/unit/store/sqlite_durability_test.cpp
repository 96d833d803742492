// The SQLite store's durability levels and its one commit per step.
#include <doctest/doctest.h>

#include "hermes/session_store.hpp"
#include "store/sqlite_database.hpp"
#include "support/temp_dir.hpp"
#include "support/wal_commits.hpp"
#include "unit/store/store_backends.hpp"

using namespace hermes;
using hermes::testing::TempDir;
using hermes::testing::wal_commit_count;

namespace {

// The writer connection's PRAGMA synchronous after the store's open sequence.
int64_t synchronous_level(const std::string& path, Durability durability) {
  auto db = store::SqliteDatabase::open(path, /*read_only=*/false);
  REQUIRE(db.ok());
  REQUIRE((*db)->enable_write_ahead_log(0, durability).ok());
  int64_t level = -1;
  REQUIRE((*db)
              ->with_connection([&](store::Connection& c) -> Status {
                auto value = c.query_text("PRAGMA synchronous");
                if (!value.ok()) return value.status();
                level = std::stoll(value->value_or("-1"));
                return {};
              })
              .ok());
  return level;
}

UsageDelta one_call() {
  UsageDelta delta;
  delta.usage.input_tokens = 100;
  delta.api_calls = 1;
  return delta;
}

}  // namespace

TEST_CASE("durability full syncs every commit and normal only at checkpoints") {
  TempDir dir;
  CHECK(synchronous_level(dir.file("full.db"), Durability::kFull) == 2);
#ifndef __APPLE__
  CHECK(synchronous_level(dir.file("normal.db"), Durability::kNormal) == 1);
#endif
  // Without WAL (here: no file at all) NORMAL could damage the file on a power loss.
  CHECK(synchronous_level(":memory:", Durability::kNormal) == 2);
}

TEST_CASE("durability names read both ways, in any case") {
  CHECK(durability_name(Durability::kFull) == "full");
  CHECK(durability_name(Durability::kNormal) == "normal");
  CHECK(durability_from_name("NORMAL") == Durability::kNormal);
  CHECK(durability_from_name("full") == Durability::kFull);
  CHECK_FALSE(durability_from_name("off").has_value());
}

TEST_CASE("a step of messages, counters and usage is one commit, at either durability") {
  for (Durability durability : {Durability::kFull, Durability::kNormal}) {
    TempDir dir;
    const std::string path = dir.file("state.db");
    SqliteStoreOptions options;
    options.durability = durability;
    auto store = open_sqlite_store(path, options);
    REQUIRE(store.ok());
    hermes::testing::create(**store, "s1");
    const int before = wal_commit_count(path);
    REQUIRE(before > 0);

    Message call = Message::assistant("");
    for (const char* id : {"c1", "c2"}) {
      ToolCall tool_call;
      tool_call.id = id;
      tool_call.name = "add";
      tool_call.arguments = "{}";
      call.tool_calls.push_back(tool_call);
    }
    auto ids = (*store)->append_step(
        "s1", {call, Message::tool("c1", "add", "3"), Message::tool("c2", "add", "5")},
        {one_call(), one_call()});
    REQUIRE(ids.ok());
    CHECK(ids->size() == 3);
    CHECK(wal_commit_count(path) == before + 1);

    // The counters moved in that same commit.
    auto row = (*store)->get_session("s1");
    REQUIRE(row.ok());
    CHECK(row->message_count == 3);
    CHECK(row->tool_call_count == 2);
    CHECK(row->api_call_count == 2);
    CHECK(row->usage.input_tokens == 200);

    // Written the old way, one call per message and per usage, the rows commit once per
    // call: what the count shows when a step is split again.
    for (const Message& m : {call, Message::tool("c1", "add", "3")}) {
      REQUIRE((*store)->append_messages("s1", {m}).ok());
    }
    REQUIRE((*store)->record_usage("s1", one_call()).ok());
    CHECK(wal_commit_count(path) == before + 4);
  }
}
