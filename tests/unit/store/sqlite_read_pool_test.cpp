// The read-only connection pool: connections reused, and the file mapped from a
// connection's second read on.
#include "store/sqlite_read_pool.hpp"

#include <doctest/doctest.h>

#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::store::Connection;
using hermes::store::SqliteReadPool;
using hermes::testing::query;
using hermes::testing::SqliteFileBackend;

TEST_CASE("a pooled connection maps the file once it has served a read") {
  SqliteFileBackend backend;  // A state database in WAL mode.
  SqliteReadPool pool(backend.path, 1);

  std::unique_ptr<Connection> first = pool.borrow();
  REQUIRE(first != nullptr);
  const Connection* identity = first.get();
  CHECK(query(*first, "PRAGMA mmap_size") == "0");
  CHECK(query(*first, "SELECT count(*) FROM sessions") == "0");
  pool.give_back(std::move(first), /*healthy=*/true);

  std::unique_ptr<Connection> again = pool.borrow();
  REQUIRE(again != nullptr);
  CHECK(again.get() == identity);  // Reused, not reopened.
  if (sizeof(void*) >= 8) {
    // SQLite caps the mapping at its compile-time maximum; anything above 0 is mapped.
    CHECK(std::stoll(query(*again, "PRAGMA mmap_size")) > 0);
  }
  CHECK(query(*again, "SELECT count(*) FROM sessions") == "0");

  // A connection given back as failed is closed; the next borrow opens a new one.
  pool.give_back(std::move(again), /*healthy=*/false);
  std::unique_ptr<Connection> fresh = pool.borrow();
  REQUIRE(fresh != nullptr);
  CHECK(query(*fresh, "PRAGMA mmap_size") == "0");
  pool.give_back(std::move(fresh), /*healthy=*/true);
}
