// The backends the session-store conformance cases run against: a TEST_CASE_TEMPLATE over
// STORE_BACKENDS runs once per backend, so every store answers to the same contract.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "hermes/postgres_store.hpp"
#include "hermes/session_store.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

// A SQLite store in a fresh file of its own.
struct SqliteFileBackend {
  TempDir dir;
  std::string path = dir.file("state.db");
  std::shared_ptr<SessionStore> store = open();

  std::shared_ptr<SessionStore> open(const SqliteStoreOptions& options = {}) {
    auto opened = open_sqlite_store(path, options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().to_string());
    return *opened;
  }
};

// The SQLite store with the trigram index.
struct SqliteTrigramBackend {
  TempDir dir;
  std::shared_ptr<SessionStore> store = open();

  std::shared_ptr<SessionStore> open() {
    SqliteStoreOptions options;
    options.trigram_index = true;
    auto opened = open_sqlite_store(dir.file("state.db"), options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().to_string());
    return *opened;
  }
};

// SQLite without a file (":memory:").
struct SqliteMemoryBackend {
  std::shared_ptr<SessionStore> store = open();

  static std::shared_ptr<SessionStore> open() {
    auto opened = open_sqlite_store(":memory:");
    REQUIRE_MESSAGE(opened.ok(), opened.status().to_string());
    return *opened;
  }
};

struct MemoryBackend {
  std::shared_ptr<SessionStore> store = make_memory_store();
};

// The conninfo of the PostgreSQL server tests may use (scripts/with-postgres sets it), or
// empty.
inline std::string postgres_test_conninfo() {
  const char* conninfo = std::getenv("HERMES_TEST_PG");
  return conninfo != nullptr ? conninfo : "";
}

// A unique schema name, so every test starts from an empty store on a shared server.
inline std::string fresh_schema_name() {
  static std::mt19937_64 rng{std::random_device{}()};
  return "hermes_test_" + std::to_string(rng() % 1'000'000'000'000ULL);
}

// The PostgreSQL store in a schema of its own; unavailable (the test is skipped) without
// HERMES_TEST_PG.
struct PostgresBackend {
  std::string schema = fresh_schema_name();
  std::shared_ptr<SessionStore> store = open();

  std::shared_ptr<SessionStore> open() {
    const std::string conninfo = postgres_test_conninfo();
    if (conninfo.empty()) return nullptr;
    PostgresStoreOptions options;
    options.schema = schema;
    auto opened = open_postgres_store(conninfo, options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().to_string());
    return *opened;
  }
};

// True when the backend can run here; otherwise says why the test is skipped.
template <typename Backend>
bool backend_available(const Backend& backend) {
  if (backend.store != nullptr) return true;
  static bool said = false;  // Once per run is enough.
  if (!said) MESSAGE("PostgreSQL cases skipped: set HERMES_TEST_PG or use scripts/with-postgres");
  said = true;
  return false;
}

// A timestamp in the plausible range stores keep as given.
inline double at(double seconds_after_base) {
  return 1'750'000'000.0 + seconds_after_base;
}

// Creates a session and fails the test if that does not work.
inline void create(SessionStore& store, const std::string& id, const std::string& source = "cli",
                   double started_at = 0, const std::string& parent = {}) {
  SessionInfo info;
  info.id = id;
  info.source = source;
  info.started_at = started_at;
  info.parent_session_id = parent;
  const Status status = store.create_session(info);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
}

// Rotates `parent` into a new child `child_id` holding `messages`, at the parent's current
// watermark (nothing arrived meanwhile), and fails the test if that does not work.
inline void rotate(SessionStore& store, const std::string& parent, const std::string& child_id,
                   const std::vector<Message>& messages) {
  auto watermark = compaction_of(store).active_message_watermark(parent);
  REQUIRE_MESSAGE(watermark.ok(), watermark.status().to_string());
  SessionInfo child;
  child.id = child_id;
  const Status status =
      compaction_of(store).rotate_for_compression(parent, child, messages, *watermark, "");
  REQUIRE_MESSAGE(status.ok(), status.to_string());
}

}  // namespace hermes::testing

TYPE_TO_STRING(hermes::testing::SqliteFileBackend);
TYPE_TO_STRING(hermes::testing::SqliteTrigramBackend);
TYPE_TO_STRING(hermes::testing::SqliteMemoryBackend);
TYPE_TO_STRING(hermes::testing::MemoryBackend);
TYPE_TO_STRING(hermes::testing::PostgresBackend);

// Declares `name` as a backend of type B, returning from the test when it cannot run here.
#define STORE_BACKEND(B, name) \
  B name;                      \
  if (!::hermes::testing::backend_available(name)) return

#define STORE_BACKENDS                                                       \
  hermes::testing::SqliteFileBackend, hermes::testing::SqliteTrigramBackend, \
      hermes::testing::SqliteMemoryBackend, hermes::testing::MemoryBackend,  \
      hermes::testing::PostgresBackend
