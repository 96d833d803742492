// The VFS that gathers a transaction's write-ahead-log frames into one write: whatever it
// gathers, a commit is in the files once COMMIT returns (a copy of them, as a process
// killed right then leaves them, holds it), and nothing it gathered for a transaction that
// did not commit ever lands on frames another writer committed since.
#include "store/sqlite_wal_batching.hpp"

#include <doctest/doctest.h>

#include <string>

#include "support/temp_dir.hpp"
#include "support/wal_commits.hpp"
#include "unit/store/sqlite_test_support.hpp"

using hermes::store::Connection;
using hermes::testing::exec;
using hermes::testing::query;
using hermes::testing::raw_connection;
using hermes::testing::read_file;
using hermes::testing::TempDir;
using hermes::testing::wal_commit_count;
using hermes::testing::write_file;

namespace {

std::unique_ptr<Connection> batching_connection(const std::string& path) {
  const char* vfs = hermes::store::wal_batching_vfs_name();
  REQUIRE(vfs != nullptr);
  auto c = Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
  REQUIRE_MESSAGE(c.ok(), c.status().to_string());
  exec(**c, "PRAGMA journal_mode=WAL");
  exec(**c, "PRAGMA synchronous=NORMAL");
  exec(**c, "PRAGMA wal_autocheckpoint=0");
  return std::move(*c);
}

// The database and its log as the operating system holds them now, copied elsewhere and
// opened there: what a process killed at this moment would leave.
std::string rows_in_copy(const TempDir& dir, const std::string& path, const std::string& sql) {
  const std::string copy = dir.file("copy.db");
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((copy + suffix).c_str());
  write_file(copy, read_file(path));
  write_file(copy + "-wal", read_file(path + "-wal"));
  auto c = raw_connection(copy);
  CHECK(query(*c, "PRAGMA integrity_check") == "ok");
  return query(*c, sql);
}

void insert_rows(Connection& c, int rows, int bytes, const std::string& who = "writer") {
  exec(c, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
              std::to_string(rows) + ") INSERT INTO t(body, who) SELECT randomblob(" +
              std::to_string(bytes) + "), '" + who + "' FROM n");
}

}  // namespace

TEST_CASE("a commit through the batching VFS is in the files when COMMIT returns") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  auto writer = batching_connection(path);
  exec(*writer, "CREATE TABLE t(id INTEGER PRIMARY KEY, body BLOB, who TEXT)");
  auto reader = raw_connection(path);
  const int before = wal_commit_count(path);
  for (int i = 1; i <= 12; ++i) {
    exec(*writer, "BEGIN IMMEDIATE");
    exec(*writer, "INSERT INTO t(body) VALUES (randomblob(3000)), (randomblob(5000))");
    exec(*writer, "COMMIT");
    CHECK(wal_commit_count(path) - before == i);
    CHECK(query(*reader, "SELECT count(*) FROM t") == std::to_string(2 * i));
  }
  CHECK(rows_in_copy(dir, path, "SELECT count(*) FROM t") == "24");
}

TEST_CASE("a transaction larger than one write, spilling its cache, commits whole") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  auto writer = batching_connection(path);
  exec(*writer, "CREATE TABLE t(id INTEGER PRIMARY KEY, body BLOB, who TEXT)");
  exec(*writer, "PRAGMA cache_size=16");  // Pages spill to the log before the commit.
  exec(*writer, "BEGIN IMMEDIATE");
  insert_rows(*writer, 400, 2000);
  exec(*writer, "UPDATE t SET body = randomblob(2100) WHERE id % 7 = 0");  // In-place rewrites.
  exec(*writer, "COMMIT");
  CHECK(rows_in_copy(dir, path, "SELECT count(*) FROM t") == "400");
  auto reader = raw_connection(path);
  CHECK(query(*reader, "SELECT count(*) FROM t WHERE length(body) = 2100") ==
        query(*reader, "SELECT count(*) FROM t WHERE id % 7 = 0"));
}

TEST_CASE("frames of a transaction that rolled back never land on a later writer's commit") {
  TempDir dir;
  const std::string path = dir.file("state.db");
  auto writer = batching_connection(path);
  exec(*writer, "CREATE TABLE t(id INTEGER PRIMARY KEY, body BLOB, who TEXT)");
  exec(*writer, "PRAGMA cache_size=16");
  exec(*writer, "BEGIN IMMEDIATE");
  insert_rows(*writer, 200, 2000);  // Spills frames to the log, then is abandoned.
  exec(*writer, "ROLLBACK");

  auto other = raw_connection(path);        // Another writer, on the default VFS.
  insert_rows(*other, 400, 1500, "other");  // Over all the frames the rollback left.
  insert_rows(*writer, 1, 100);
  CHECK(rows_in_copy(dir, path,
                     "SELECT group_concat(who || ':' || n) FROM "
                     "(SELECT who, count(*) AS n FROM t GROUP BY who ORDER BY who)") ==
        "other:400,writer:1");
}
