// What the SQLite store does to the file it is given: creates it private, keeps WAL on,
// and refuses (without writing a byte) files that are not its own or are too new.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>

#include "support/store_capabilities.hpp"
#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SqliteStoreOptions;
using hermes::StatusCode;
using hermes::testing::create;
using hermes::testing::query;
using hermes::testing::raw_connection;
using hermes::testing::read_file;
using hermes::testing::search_of;
using hermes::testing::TempDir;

namespace {

unsigned permissions(const std::string& path) {
  struct stat info {};
  REQUIRE(stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

}  // namespace

TEST_CASE("a new database file and its directory are private to the owner") {
  TempDir dir;
  const std::string path = dir.file("profile/nested/state.db");
  auto store = hermes::open_sqlite_store(path);
  REQUIRE(store.ok());
  create(**store, "s1");  // A write, so the WAL file exists.
  CHECK(permissions(path) == 0600);
  CHECK(permissions(path + "-wal") == 0600);
  CHECK(permissions(dir.file("profile/nested")) == 0700);
}

TEST_CASE("an existing database with loose permissions is tightened on open") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  REQUIRE(hermes::open_sqlite_store(path).ok());
  REQUIRE(chmod(path.c_str(), 0644) == 0);
  REQUIRE(hermes::open_sqlite_store(path).ok());
  CHECK(permissions(path) == 0600);
}

TEST_CASE("a reopened database still holds its sessions and messages") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  {
    auto store = hermes::open_sqlite_store(path);
    REQUIRE(store.ok());
    create(**store, "s1");
    REQUIRE((*store)->append_messages("s1", {Message::user("persist me")}).ok());
  }
  auto reopened = hermes::open_sqlite_store(path);
  REQUIRE(reopened.ok());
  auto loaded = (*reopened)->load_messages("s1");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 1);
  CHECK((*loaded)[0].content == "persist me");
  CHECK(search_of(*reopened).search("persist")->size() == 1);
}

TEST_CASE("a new database carries the newest upstream schema version and FTS layout") {
  hermes::testing::SqliteFileBackend backend;
  auto c = raw_connection(backend.path);
  CHECK(query(*c, "SELECT version FROM schema_version") == "30");
  CHECK(query(*c, "SELECT value FROM state_meta WHERE key = 'fts_storage_version'") == "3");
  CHECK(query(*c, "SELECT type FROM sqlite_master WHERE name = 'messages_fts_src'") == "view");
  for (const char* name : {"messages_fts_insert", "messages_fts_delete", "messages_fts_update"}) {
    CAPTURE(name);
    CHECK(query(*c, std::string("SELECT type FROM sqlite_master WHERE name = '") + name + "'") ==
          "trigger");
  }
  CHECK(query(*c, "SELECT count(*) FROM sqlite_master WHERE name = 'messages_fts_trigram'") == "0");
  CHECK(query(*c, "SELECT count(*) FROM sqlite_master WHERE name = 'idx_sessions_title_unique'") ==
        "1");
}

TEST_CASE("the database runs in WAL mode") {
  hermes::testing::SqliteFileBackend backend;
  auto c = raw_connection(backend.path);
  CHECK(query(*c, "PRAGMA journal_mode") == "wal");
}

TEST_CASE("a file that is not a database is refused and left unchanged") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 131 + 7) % 251);
  hermes::testing::write_file(path, garbage);

  auto store = hermes::open_sqlite_store(path);
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().code() == StatusCode::kDataLoss);
  CHECK(store.status().message().find("not a SQLite database") != std::string::npos);
  CHECK(read_file(path) == garbage);
  CHECK_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST_CASE("another program's SQLite database is refused and left unchanged") {
  TempDir dir;
  const std::string path = dir.file("notes.db");
  {
    auto c = raw_connection(path);
    hermes::testing::exec(*c,
                          "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"
                          "INSERT INTO notes (body) VALUES ('keep me');");
  }
  const std::string before = read_file(path);
  auto store = hermes::open_sqlite_store(path);
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().code() == StatusCode::kDataLoss);
  CHECK(store.status().message().find("another program") != std::string::npos);
  CHECK(read_file(path) == before);
}

TEST_CASE("a database with a newer schema version is refused and not written") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  {
    auto store = hermes::open_sqlite_store(path);
    REQUIRE(store.ok());
    create(**store, "s1");
  }
  {
    auto c = raw_connection(path);
    hermes::testing::exec(*c, "UPDATE schema_version SET version = 31");
  }
  const std::string before = read_file(path);
  auto store = hermes::open_sqlite_store(path);
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().code() == StatusCode::kDataLoss);
  CHECK(store.status().message().find("31") != std::string::npos);
  CHECK(read_file(path) == before);
  auto c = raw_connection(path);
  CHECK(query(*c, "SELECT version FROM schema_version") == "31");
}

TEST_CASE("a read-only store reads without writing") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  {
    auto store = hermes::open_sqlite_store(path);
    REQUIRE(store.ok());
    create(**store, "s1");
    REQUIRE((*store)->append_messages("s1", {Message::user("read me later")}).ok());
  }
  SqliteStoreOptions read_only;
  read_only.read_only = true;
  auto store = hermes::open_sqlite_store(path, read_only);
  REQUIRE_MESSAGE(store.ok(), store.status().to_string());
  CHECK((*store)->load_messages("s1")->size() == 1);
  CHECK(search_of(*store).search("later")->size() == 1);
  CHECK((*store)->append_messages("s1", {Message::user("no")}).status().code() ==
        StatusCode::kFailedPrecondition);
  hermes::SessionInfo info;
  info.id = "s2";
  CHECK((*store)->create_session(info).code() == StatusCode::kFailedPrecondition);

  auto missing = hermes::open_sqlite_store(dir.file("absent.db"), read_only);
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK_FALSE(std::filesystem::exists(dir.file("absent.db")));
}

TEST_CASE("the integrity checks pass after a mix of operations") {
  hermes::testing::SqliteTrigramBackend backend;
  auto& store = *backend.store;
  create(store, "a");
  create(store, "b");
  for (int i = 0; i < 20; ++i) {
    REQUIRE(store
                .append_messages("a", {Message::user("question " + std::to_string(i)),
                                       Message::tool("c", "shell", std::string(10'000, 'x'))})
                .ok());
  }
  REQUIRE(store.append_messages("b", {Message::user("机器学习的问题")}).ok());
  REQUIRE(store.set_title("a", "Mixed").ok());
  REQUIRE(store.set_system_prompt("b", "prompt").ok());
  REQUIRE(store.delete_session("a").ok());

  auto c = raw_connection(backend.dir.file("state.db"));
  CHECK(query(*c, "PRAGMA integrity_check") == "ok");
  CHECK(c->exec("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)").ok());
  CHECK(c->exec("INSERT INTO messages_fts_trigram(messages_fts_trigram, rank) "
                "VALUES('integrity-check', 1)")
            .ok());
  CHECK(query(*c, "SELECT count(*) FROM messages_fts_docsize") == "1");
}

TEST_CASE("system prompts are stored once, addressed by their SHA-256") {
  hermes::testing::SqliteFileBackend backend;
  create(*backend.store, "a");
  create(*backend.store, "b");
  REQUIRE(backend.store->set_system_prompt("a", "You are Hermes.").ok());
  REQUIRE(backend.store->set_system_prompt("b", "You are Hermes.").ok());
  auto c = raw_connection(backend.path);
  const std::string hash = "34af87112683610301abcac8ecfeec1cc5fbe9cac1de4159196c61e284566e47";
  CHECK(query(*c, "SELECT group_concat(DISTINCT system_prompt_hash) FROM sessions") == hash);
  CHECK(query(*c, "SELECT count(*) FROM system_prompts") == "1");
  CHECK(query(*c, "SELECT count(*) FROM sessions WHERE system_prompt IS NOT NULL") == "0");
}

TEST_CASE("list content is stored behind the JSON prefix upstream reads") {
  hermes::testing::SqliteFileBackend backend;
  create(*backend.store, "s1");
  auto m = hermes::message_from_json(hermes::Json::parse(
      R"({"role":"user","content":[{"type":"text","text":"look"},
          {"type":"input_image","image_url":"data:image/png;base64,AAAA"}]})"));
  REQUIRE(m.ok());
  REQUIRE(backend.store->append_messages("s1", {*m}).ok());
  auto c = raw_connection(backend.path);
  // SQLite's text functions stop at the prefix's NUL; the bytes are compared as a BLOB.
  const std::string bytes = "CAST(content AS BLOB)";
  CHECK(query(*c, "SELECT hex(substr(" + bytes + ", 1, 6)) FROM messages") == "006A736F6E3A");
  CHECK(query(*c, "SELECT instr(" + bytes + ", CAST('look' AS BLOB)) > 0 FROM messages") == "1");
  CHECK(query(*c, "SELECT instr(" + bytes + ", CAST('AAAA' AS BLOB)) FROM messages") == "0");
  CHECK(query(*c, "SELECT instr(" + bytes + ", CAST('[screenshot]' AS BLOB)) > 0 FROM messages") ==
        "1");
}
