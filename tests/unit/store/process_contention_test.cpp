// Eight processes appending to one store at once, all into one session: nothing may
// surface as an error, and no row may be lost, duplicated or reordered within a writer.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <map>

#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SessionStore;

namespace {

constexpr int kProcesses = 8;
constexpr int kTurnsPerProcess = 200;

// Forks `count` children that wait on a pipe, so they all start together, then run
// `work(index)`; returns how many failed.
int run_processes(int count, const std::function<bool(int)>& work) {
  int gate[2];
  REQUIRE(pipe(gate) == 0);
  std::vector<pid_t> children;
  for (int i = 0; i < count; ++i) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      close(gate[1]);
      char byte;
      (void)!read(gate[0], &byte, 1);  // Returns 0 once the parent closes its end.
      _exit(work(i) ? 0 : 1);
    }
    children.push_back(pid);
  }
  close(gate[0]);
  close(gate[1]);
  int failed = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  return failed;
}

// One writer's turns: a user message and an assistant reply, one transaction each turn.
bool append_turns(SessionStore& store, int writer) {
  for (int turn = 0; turn < kTurnsPerProcess; ++turn) {
    const std::string tag = "w" + std::to_string(writer) + " t" + std::to_string(turn);
    auto ids = store.append_messages(
        "shared", {Message::user(tag + " question"), Message::assistant(tag + " answer")});
    if (!ids.ok()) {
      std::fprintf(stderr, "writer %d turn %d: %s\n", writer, turn,
                   ids.status().to_string().c_str());
      return false;
    }
  }
  return true;
}

// Every writer's messages are all there, once, in the order it wrote them.
void check_transcript(SessionStore& store) {
  hermes::LoadOptions options;
  options.max_messages = 0;
  auto loaded = store.load_messages("shared", options);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == static_cast<std::size_t>(kProcesses * kTurnsPerProcess * 2));
  std::map<int, int> next_turn;
  for (std::size_t i = 0; i < loaded->size(); i += 2) {
    int writer = -1;
    int turn = -1;
    REQUIRE(std::sscanf((*loaded)[i].content.c_str(), "w%d t%d question", &writer, &turn) == 2);
    CHECK(turn == next_turn[writer]++);
    CHECK((*loaded)[i + 1].content ==
          "w" + std::to_string(writer) + " t" + std::to_string(turn) + " answer");
  }
  for (int w = 0; w < kProcesses; ++w) CHECK(next_turn[w] == kTurnsPerProcess);
  CHECK(store.get_session("shared")->message_count == kProcesses * kTurnsPerProcess * 2);
}

}  // namespace

TEST_CASE("eight processes appending to one SQLite file lose and duplicate nothing") {
  hermes::testing::SqliteFileBackend backend;
  hermes::testing::create(*backend.store, "shared");
  const std::string path = backend.path;
  const int failed = run_processes(kProcesses, [&](int writer) {
    auto store = hermes::open_sqlite_store(path);
    return store.ok() && append_turns(**store, writer);
  });
  CHECK(failed == 0);
  check_transcript(*backend.store);
  auto raw = hermes::testing::raw_connection(path);
  CHECK(hermes::testing::query(*raw, "PRAGMA integrity_check") == "ok");
  CHECK(hermes::testing::query(*raw, "SELECT COUNT(DISTINCT content) FROM messages") ==
        std::to_string(kProcesses * kTurnsPerProcess * 2));
}

TEST_CASE("eight processes appending to one PostgreSQL database lose and duplicate nothing") {
  hermes::testing::PostgresBackend backend;
  if (!hermes::testing::backend_available(backend)) return;
  hermes::testing::create(*backend.store, "shared");
  const std::string conninfo = hermes::testing::postgres_test_conninfo();
  const std::string schema = backend.schema;
  const int failed = run_processes(kProcesses, [&](int writer) {
    hermes::PostgresStoreOptions options;
    options.schema = schema;
    auto store = hermes::open_postgres_store(conninfo, options);
    return store.ok() && append_turns(**store, writer);
  });
  CHECK(failed == 0);
  check_transcript(*backend.store);
}

TEST_CASE("an unreachable PostgreSQL server is a clear error") {
  hermes::PostgresStoreOptions options;
  options.connect_timeout_seconds = 2;
  // Port 1 on the loopback: nothing listens there.
  auto store = hermes::open_postgres_store("host=127.0.0.1 port=1 dbname=x user=x", options);
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().message().find("PostgreSQL") != std::string::npos);
  auto garbage = hermes::open_postgres_store("this is = not a = conninfo '", options);
  CHECK_FALSE(garbage.ok());
}
