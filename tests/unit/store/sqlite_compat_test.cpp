// Files written by upstream Hermes: the newest layout and a mid-era one with the inline
// FTS layout and columns missing. Both must open, read and accept appends.
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Json;
using hermes::Message;
using hermes::Role;
using hermes::SearchOptions;
using hermes::SqliteStoreOptions;
using hermes::StatusCode;
using hermes::testing::create_from_fixture;
using hermes::testing::query;
using hermes::testing::raw_connection;
using hermes::testing::search_of;
using hermes::testing::TempDir;

namespace {

constexpr const char* kUpstreamSession = "20250601_090000_a1b2c3";
constexpr const char* kLegacySession = "20240301_101500_0f0f0f";

}  // namespace

TEST_CASE("an upstream schema 30 database opens with its sessions and transcript") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v30.sql");
  auto store = hermes::open_sqlite_store(path);
  REQUIRE_MESSAGE(store.ok(), store.status().to_string());

  auto session = (*store)->get_session(kUpstreamSession);
  REQUIRE(session.ok());
  CHECK(session->title == "Upstream session");
  CHECK(session->system_prompt == "You are Hermes.");
  CHECK(session->usage.input_tokens == 1200);
  CHECK(session->api_call_count == 2);

  auto loaded = (*store)->load_messages(kUpstreamSession);
  REQUIRE(loaded.ok());
  // The session_meta row is not a message; the row archived by compaction is not live.
  REQUIRE(loaded->size() == 4);
  const Message& user = (*loaded)[0];
  CHECK(user.role == Role::kUser);
  CHECK(user.content == "Describe the lighthouse picture\n[screenshot]");
  CHECK(user.parts.size() == 2);
  const Message& call = (*loaded)[1];
  REQUIRE(call.tool_calls.size() == 1);
  CHECK(call.tool_calls[0].name == "vision_analyze");
  CHECK(call.tool_calls[0].arguments == R"({"image": "last"})");
  CHECK(call.reasoning == "Look at the image first.");
  CHECK(call.extra.is_null());  // reasoning_content equal to reasoning is not repeated.
  CHECK(call.reasoning_details.is_array());
  CHECK((*loaded)[2].name == "vision_analyze");
  CHECK((*loaded)[3].content == "It shows a red lighthouse at dusk.");
}

TEST_CASE("hermes appends to an upstream schema 30 database in upstream's format") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v30.sql");
  {
    auto store = hermes::open_sqlite_store(path);
    REQUIRE(store.ok());
    auto ids =
        (*store)->append_messages(kUpstreamSession, {Message::user("Who keeps the lighthouse?")});
    REQUIRE(ids.ok());
    auto hits = search_of(*store).search("lighthouse");
    REQUIRE(hits.ok());
    // User, tool result, the archived row (still searchable), answer, and the new question.
    CHECK(hits->size() == 5);
    CHECK(std::any_of(hits->begin(), hits->end(),
                      [&](const hermes::SearchHit& h) { return h.message_id == (*ids)[0]; }));
    CHECK((*store)->get_session(kUpstreamSession)->message_count == 6);
  }
  auto c = raw_connection(path);
  CHECK(query(*c, "SELECT version FROM schema_version") == "30");
  CHECK(query(*c, "SELECT display_order IS NOT NULL FROM messages ORDER BY id DESC LIMIT 1") ==
        "1");
  CHECK(query(*c, "PRAGMA integrity_check") == "ok");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
}

TEST_CASE("deleting a session of an upstream database cascades to upstream's own tables") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v30.sql");
  {
    auto store = hermes::open_sqlite_store(path);
    REQUIRE(store.ok());
    REQUIRE((*store)->delete_session(kUpstreamSession).ok());
    CHECK(search_of(*store).search("lighthouse")->empty());
  }
  auto c = raw_connection(path);
  CHECK(query(*c, "SELECT count(*) FROM session_model_usage") == "0");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
}

TEST_CASE("a mid-era upstream database gains the missing columns and keeps its layout") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v22_legacy.sql");
  auto store = hermes::open_sqlite_store(path);
  REQUIRE_MESSAGE(store.ok(), store.status().to_string());

  auto session = (*store)->get_session(kLegacySession);
  REQUIRE(session.ok());
  CHECK(session->system_prompt == "You are an older Hermes.");
  CHECK(session->title == "Legacy chat");
  CHECK((*store)->load_messages(kLegacySession)->size() == 2);

  Message reply = Message::assistant("Moved the dentist to Monday.");
  reply.api_content = "Moved the dentist to Monday. [internal]";
  REQUIRE((*store)->append_messages(kLegacySession, {reply}).ok());
  auto hits = search_of(*store).search("dentist");
  REQUIRE(hits.ok());
  CHECK(hits->size() == 3);
  CHECK((*store)->load_messages(kLegacySession)->back() == [&] {
    Message expected = reply;
    expected.timestamp = (*store)->load_messages(kLegacySession)->back().timestamp;
    return expected;
  }());

  REQUIRE((*store)->set_system_prompt(kLegacySession, "You are a newer Hermes.").ok());
  CHECK((*store)->get_session(kLegacySession)->system_prompt == "You are a newer Hermes.");

  auto c = raw_connection(path);
  // Upstream's own data migrations still run on its next open.
  CHECK(query(*c, "SELECT version FROM schema_version") == "22");
  CHECK(query(*c, "SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'active'") ==
        "1");
  CHECK(query(*c, "SELECT count(*) FROM sqlite_master WHERE name = 'messages_fts_src'") == "0");
  CHECK(query(*c, "SELECT system_prompt IS NULL FROM sessions") == "1");
  CHECK(query(*c, "PRAGMA integrity_check") == "ok");
}

TEST_CASE("the trigram index of a mid-era upstream database serves CJK search") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v22_legacy.sql");
  SqliteStoreOptions options;
  options.trigram_index = true;
  auto store = hermes::open_sqlite_store(path, options);
  REQUIRE(store.ok());
  auto hits = search_of(*store).search("我会提醒");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].rank < 0);
}

TEST_CASE("a mid-era upstream database cannot be opened read-only before its upgrade") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v22_legacy.sql");
  SqliteStoreOptions read_only;
  read_only.read_only = true;
  auto store = hermes::open_sqlite_store(path, read_only);
  CHECK(store.status().code() == StatusCode::kFailedPrecondition);
  CHECK(store.status().message().find("read-write") != std::string::npos);
  auto c = raw_connection(path);
  CHECK(query(*c, "SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'active'") ==
        "0");
}

TEST_CASE("rows an old reconciler left without an active flag are live again") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v22_legacy.sql");
  {
    auto c = raw_connection(path);
    hermes::testing::exec(*c, "ALTER TABLE messages ADD COLUMN active INTEGER");
  }
  auto store = hermes::open_sqlite_store(path);
  REQUIRE(store.ok());
  CHECK((*store)->load_messages(kLegacySession)->size() == 2);
}

TEST_CASE("tool calls that are not valid JSON load as none") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  create_from_fixture(path, "upstream_v30.sql");
  {
    auto c = raw_connection(path);
    hermes::testing::exec(
        *c, "UPDATE messages SET tool_calls = '[{broken' WHERE tool_calls IS NOT NULL");
  }
  auto store = hermes::open_sqlite_store(path);
  REQUIRE(store.ok());
  auto loaded = (*store)->load_messages(kUpstreamSession);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 4);
  CHECK((*loaded)[1].tool_calls.empty());
  CHECK((*loaded)[1].reasoning == "Look at the image first.");
}
