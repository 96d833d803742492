// Append rate: turns of 10 messages, one transaction each, through the store (with and
// without the trigram index) and as raw sqlite3 inserts into a table without any index
// beyond its primary key (the floor no store can beat).
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "bench_corpus.hpp"
#include "bench_sizes.hpp"
#include "hermes/session_store.hpp"

namespace hermes::bench {
namespace {

constexpr std::size_t kTurnMessages = 10;

std::string fresh_path(const std::string& name) {
  const std::string path = cache_dir() + "/" + name + "-" + std::to_string(getpid()) + ".db";
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
  return path;
}

void remove_db(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

void append_through_store(benchmark::State& state, bool trigram) {
  const std::string path = fresh_path(trigram ? "append-trigram" : "append-words");
  {
    SqliteStoreOptions options;
    options.trigram_index = trigram;
    auto store = open_sqlite_store(path, options);
    if (!store.ok()) {
      state.SkipWithError(store.status().to_string().c_str());
      return;
    }
    SessionInfo info;
    info.id = "bench";
    (void)(*store)->create_session(info);
    TextGenerator text;
    for (auto _ : state) {
      state.PauseTiming();
      const std::vector<Message> turn = text.turn(kTurnMessages);
      state.ResumeTiming();
      auto ids = (*store)->append_messages("bench", turn);
      if (!ids.ok()) state.SkipWithError(ids.status().to_string().c_str());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kTurnMessages));
  }
  remove_db(path);
}

// The same rows and the same transaction shape, straight into SQLite with no FTS.
void raw_sqlite_floor(benchmark::State& state) {
  const std::string path = fresh_path("append-raw");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db,
               "PRAGMA journal_mode=WAL; CREATE TABLE messages (id INTEGER PRIMARY KEY "
               "AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, "
               "timestamp REAL NOT NULL)",
               nullptr, nullptr, nullptr);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v3(db,
                     "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
                     "(?, ?, ?, ?)",
                     -1, SQLITE_PREPARE_PERSISTENT, &insert, nullptr);
  TextGenerator text;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<Message> turn = text.turn(kTurnMessages);
    state.ResumeTiming();
    sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    for (const Message& m : turn) {
      sqlite3_bind_text(insert, 1, "bench", -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, m.role == Role::kUser ? "user" : "assistant", -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 3, m.content.c_str(), static_cast<int>(m.content.size()),
                        SQLITE_STATIC);
      sqlite3_bind_double(insert, 4, 1'750'000'000.0);
      sqlite3_step(insert);
      sqlite3_reset(insert);
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kTurnMessages));
  sqlite3_finalize(insert);
  sqlite3_close(db);
  remove_db(path);
}

}  // namespace

void register_append_benchmarks() {
  const auto turns =
      static_cast<benchmark::IterationCount>(sizes().append_messages / kTurnMessages);
  benchmark::RegisterBenchmark("append/raw_sqlite_no_fts", raw_sqlite_floor)
      ->Iterations(turns)
      ->UseRealTime()  // Commits wait for the disk: wall time is what a writer sees.
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("append/store_words", append_through_store, false)
      ->Iterations(turns)
      ->UseRealTime()  // Commits wait for the disk: wall time is what a writer sees.
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("append/store_words_trigram", append_through_store, true)
      ->Iterations(turns)
      ->UseRealTime()  // Commits wait for the disk: wall time is what a writer sees.
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace hermes::bench
