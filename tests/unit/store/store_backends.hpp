// The backends the session-store conformance cases run against: a TEST_CASE_TEMPLATE over
// STORE_BACKENDS runs once per backend, so every store answers to the same contract.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "hermes/session_store.hpp"
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

struct MemoryBackend {
  std::shared_ptr<SessionStore> store = make_memory_store();
};

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

}  // namespace hermes::testing

TYPE_TO_STRING(hermes::testing::SqliteFileBackend);
TYPE_TO_STRING(hermes::testing::SqliteTrigramBackend);
TYPE_TO_STRING(hermes::testing::MemoryBackend);

#define STORE_BACKENDS                                                       \
  hermes::testing::SqliteFileBackend, hermes::testing::SqliteTrigramBackend, \
      hermes::testing::MemoryBackend
