// main() of the store benchmarks: Google Benchmark's flags plus --size=tiny|full.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "bench_sizes.hpp"

namespace hermes::bench {
namespace {

Sizes current;

Sizes tiny() {
  Sizes s;
  s.name = "tiny";
  s.append_messages = 500;
  s.corpus_messages = 5'000;
  s.resume_messages = 1'000;
  s.search_queries = 20;
  return s;
}

}  // namespace

const Sizes& sizes() {
  return current;
}

std::string cache_dir() {
  const char* chosen = std::getenv("HERMES_BENCH_DIR");
  return chosen != nullptr && *chosen != '\0' ? chosen : HERMES_BENCH_CACHE_DIR;
}

}  // namespace hermes::bench

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size=tiny") == 0) {
      hermes::bench::current = hermes::bench::tiny();
    } else if (std::strcmp(argv[i], "--size=full") == 0) {
      hermes::bench::current = hermes::bench::Sizes{};
    } else if (std::strncmp(argv[i], "--size=", 7) == 0) {
      std::cerr << "unknown size " << argv[i] << " (tiny or full)\n";
      return 2;
    } else {
      rest.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(count, rest.data())) return 1;
  benchmark::AddCustomContext("size", hermes::bench::sizes().name);
  hermes::bench::register_append_benchmarks();
  hermes::bench::register_search_benchmarks();
  hermes::bench::register_resume_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
