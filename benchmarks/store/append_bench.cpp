// Append rate: turns of 10 messages, one transaction each, through the store (with and
// without the trigram index) and as raw sqlite3 inserts into a table without any index
// beyond its primary key (the floor no store can beat). The two are also timed turn by
// turn in one loop, so that both see the same machine and the ratio holds still.
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
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

// The floor: the same rows and the same transaction shape, straight into SQLite with no
// FTS, one prepared insert per row.
class RawFloor {
 public:
  RawFloor() : path_(fresh_path("append-raw")) {
    sqlite3_open(path_.c_str(), &db_);
    sqlite3_exec(db_,
                 "PRAGMA journal_mode=WAL; CREATE TABLE messages (id INTEGER PRIMARY KEY "
                 "AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, "
                 "timestamp REAL NOT NULL)",
                 nullptr, nullptr, nullptr);
    sqlite3_prepare_v3(db_,
                       "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
                       "(?, ?, ?, ?)",
                       -1, SQLITE_PREPARE_PERSISTENT, &insert_, nullptr);
  }
  ~RawFloor() {
    sqlite3_finalize(insert_);
    sqlite3_close(db_);
    remove_db(path_);
  }
  RawFloor(const RawFloor&) = delete;
  RawFloor& operator=(const RawFloor&) = delete;

  void append(const std::vector<Message>& turn) {
    sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    for (const Message& m : turn) {
      sqlite3_bind_text(insert_, 1, "bench", -1, SQLITE_STATIC);
      sqlite3_bind_text(insert_, 2, m.role == Role::kUser ? "user" : "assistant", -1,
                        SQLITE_STATIC);
      sqlite3_bind_text(insert_, 3, m.content.c_str(), static_cast<int>(m.content.size()),
                        SQLITE_STATIC);
      sqlite3_bind_double(insert_, 4, 1'750'000'000.0);
      sqlite3_step(insert_);
      sqlite3_reset(insert_);
    }
    sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
};

// A store in a fresh file with one session to append to.
class FreshStore {
 public:
  explicit FreshStore(bool trigram)
      : path_(fresh_path(trigram ? "append-trigram" : "append-words")) {
    SqliteStoreOptions options;
    options.trigram_index = trigram;
    auto store = open_sqlite_store(path_, options);
    if (!store.ok()) {
      error_ = store.status().to_string();
      return;
    }
    store_ = std::move(*store);
    SessionInfo info;
    info.id = "bench";
    (void)store_->create_session(info);
  }
  ~FreshStore() {
    store_.reset();
    remove_db(path_);
  }
  FreshStore(const FreshStore&) = delete;
  FreshStore& operator=(const FreshStore&) = delete;

  const std::string& error() const { return error_; }
  Status append(const std::vector<Message>& turn) {
    return store_->append_messages("bench", turn).status();
  }

 private:
  std::string path_;
  std::string error_;
  std::shared_ptr<SessionStore> store_;
};

void append_through_store(benchmark::State& state, bool trigram) {
  FreshStore store(trigram);
  if (!store.error().empty()) {
    state.SkipWithError(store.error().c_str());
    return;
  }
  TextGenerator text;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<Message> turn = text.turn(kTurnMessages);
    state.ResumeTiming();
    const Status status = store.append(turn);
    if (!status.ok()) state.SkipWithError(status.to_string().c_str());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kTurnMessages));
}

void raw_sqlite_floor(benchmark::State& state) {
  RawFloor floor;
  TextGenerator text;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<Message> turn = text.turn(kTurnMessages);
    state.ResumeTiming();
    floor.append(turn);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kTurnMessages));
}

// Each turn goes to the floor and then to the store, each timed on its own: a burst of
// other load on the machine lands on both sides alike. Reports both means and their ratio.
void store_against_floor(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  RawFloor floor;
  FreshStore store(/*trigram=*/false);
  if (!store.error().empty()) {
    state.SkipWithError(store.error().c_str());
    return;
  }
  TextGenerator text;
  Clock::duration floor_time{};
  Clock::duration store_time{};
  for (auto _ : state) {
    const std::vector<Message> turn = text.turn(kTurnMessages);
    const auto start = Clock::now();
    floor.append(turn);
    const auto middle = Clock::now();
    const Status status = store.append(turn);
    store_time += Clock::now() - middle;
    floor_time += middle - start;
    if (!status.ok()) state.SkipWithError(status.to_string().c_str());
  }
  const auto turns = static_cast<double>(state.iterations());
  const auto micros = [&](Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count() / turns;
  };
  state.counters["floor_us"] = micros(floor_time);
  state.counters["store_us"] = micros(store_time);
  state.counters["ratio"] = micros(store_time) / micros(floor_time);
}

}  // namespace

void register_append_benchmarks() {
  const auto turns =
      static_cast<benchmark::IterationCount>(sizes().append_messages / kTurnMessages);
  // Commits wait for the disk: wall time is what a writer sees.
  benchmark::RegisterBenchmark("append/raw_sqlite_no_fts", raw_sqlite_floor)
      ->Iterations(turns)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("append/store_words", append_through_store, false)
      ->Iterations(turns)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("append/store_words_trigram", append_through_store, true)
      ->Iterations(turns)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("append/store_words_vs_floor", store_against_floor)
      ->Iterations(turns)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace hermes::bench
