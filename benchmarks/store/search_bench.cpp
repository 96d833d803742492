// Search latency over a large corpus: every query of a mixed set timed on its own, the
// percentiles reported as counters (p50_ms, p99_ms).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "bench_corpus.hpp"
#include "bench_sizes.hpp"
#include "hermes/session_store.hpp"

namespace hermes::bench {
namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

constexpr std::size_t kAllKinds = kSearchQueryKinds;

// `fresh_store`: every query on a store opened for it, so nothing learnt by earlier
// queries (phrase counts and row lengths kept for ranking) helps; the page cache stays
// warm. `kind`: only the queries of that kind (after all the others, in order, have run
// untimed, so the store has learnt what it would have in the mixed run), or kAllKinds.
void search_latency(benchmark::State& state, bool fresh_store, std::size_t kind) {
  const std::string path = search_corpus(sizes().corpus_messages);
  auto store = open_sqlite_store(path);
  if (!store.ok()) {
    state.SkipWithError(store.status().to_string().c_str());
    return;
  }
  TextGenerator text;
  const std::vector<std::string> queries = search_queries(text, sizes().search_queries);
  std::vector<double> millis;
  std::size_t hits = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const std::string& query = queries[i];
      const bool timed = kind == kAllKinds || i % kSearchQueryKinds == kind;
      if (!timed) {
        state.PauseTiming();
        auto warm = (*store)->search_capability()->search(query);
        state.ResumeTiming();
        if (!warm.ok()) state.SkipWithError(warm.status().to_string().c_str());
        continue;
      }
      if (fresh_store) {
        state.PauseTiming();
        store = open_sqlite_store(path);
        state.ResumeTiming();
        if (!store.ok()) {
          state.SkipWithError(store.status().to_string().c_str());
          return;
        }
      }
      const auto start = std::chrono::steady_clock::now();
      auto found = (*store)->search_capability()->search(query);
      const auto elapsed = std::chrono::steady_clock::now() - start;
      if (!found.ok()) state.SkipWithError(found.status().to_string().c_str());
      hits += found.ok() ? found->size() : 0;
      millis.push_back(std::chrono::duration<double, std::milli>(elapsed).count());
    }
  }
  state.counters["p50_ms"] = percentile(millis, 0.50);
  state.counters["p99_ms"] = percentile(millis, 0.99);
  state.counters["queries"] = static_cast<double>(millis.size());
  state.counters["corpus"] = static_cast<double>(sizes().corpus_messages);
  state.counters["hits"] = static_cast<double>(hits);
}

}  // namespace

void register_search_benchmarks() {
  benchmark::RegisterBenchmark("search/mixed_queries", search_latency, false, kAllKinds)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("search/mixed_queries_fresh_store", search_latency, true, kAllKinds)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  for (std::size_t kind = 0; kind < kSearchQueryKinds; ++kind) {
    const std::string name = std::string("search/kind:") + kSearchQueryKindNames[kind];
    benchmark::RegisterBenchmark(name.c_str(), search_latency, false, kind)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace hermes::bench
