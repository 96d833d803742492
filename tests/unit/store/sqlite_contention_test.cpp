// Several writers on one file: within a process (threads, several stores) and across
// processes (another connection holding the write lock longer than SQLite's own wait).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "unit/store/sqlite_test_support.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::testing::create;
using hermes::testing::exec;
using hermes::testing::raw_connection;
using hermes::testing::SqliteFileBackend;

TEST_CASE("stores on one file in many threads lose no appends") {
  SqliteFileBackend backend;
  create(*backend.store, "shared");
  auto other = backend.open();  // A second connection, as a second process would have.
  constexpr int kThreads = 4;
  constexpr int kAppendsPerThread = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    auto store = t % 2 == 0 ? backend.store : other;
    threads.emplace_back([store, t, &failures] {
      for (int i = 0; i < kAppendsPerThread; ++i) {
        auto ids = store->append_messages(
            "shared",
            {Message::user("thread " + std::to_string(t) + " message " + std::to_string(i))});
        if (!ids.ok()) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
  CHECK(backend.store->load_messages("shared")->size() == kThreads * kAppendsPerThread);
  CHECK(other->get_session("shared")->message_count == kThreads * kAppendsPerThread);
}

TEST_CASE("an append waits out a write lock held longer than SQLite's busy timeout") {
  SqliteFileBackend backend;
  create(*backend.store, "s1");
  auto holder = raw_connection(backend.path);  // Another process, in effect.
  exec(*holder, "BEGIN IMMEDIATE");

  hermes::Status appended = hermes::Status::internal("not run");
  std::thread writer([&] {
    appended = backend.store->append_messages("s1", {Message::user("patient")}).status();
  });
  // Longer than the 1 s SQLite waits by itself: only the store's own retries get through.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  exec(*holder, "COMMIT");
  writer.join();
  CHECK_MESSAGE(appended.ok(), appended.to_string());
  CHECK(backend.store->load_messages("s1")->size() == 1);
}
