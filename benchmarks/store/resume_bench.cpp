// Resume time: loading a long session for the next turn (the rows, decoded, filtered).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>

#include "bench_corpus.hpp"
#include "bench_sizes.hpp"
#include "hermes/session_store.hpp"

namespace hermes::bench {
namespace {

void resume(benchmark::State& state) {
  const std::string path = cache_dir() + "/resume-" + std::to_string(getpid()) + ".db";
  {
    auto store = open_sqlite_store(path);
    if (!store.ok()) {
      state.SkipWithError(store.status().to_string().c_str());
      return;
    }
    SessionInfo info;
    info.id = "long";
    (void)(*store)->create_session(info);
    TextGenerator text;
    for (std::size_t n = 0; n < sizes().resume_messages; n += 100) {
      (void)(*store)->append_messages("long", text.turn(100));
    }
    LoadOptions options;
    options.max_messages = 0;
    for (auto _ : state) {
      auto loaded = (*store)->load_messages("long", options);
      if (!loaded.ok() || loaded->size() != sizes().resume_messages) {
        state.SkipWithError("the session did not load whole");
      }
      benchmark::DoNotOptimize(loaded);
    }
    state.counters["messages"] = static_cast<double>(sizes().resume_messages);
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

}  // namespace

void register_resume_benchmarks() {
  benchmark::RegisterBenchmark("resume/load_session", resume)->Unit(benchmark::kMillisecond);
}

}  // namespace hermes::bench
