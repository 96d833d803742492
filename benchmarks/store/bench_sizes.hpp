// The sizes the store benchmarks run at, chosen on the command line with --size=.
#pragma once

#include <cstddef>
#include <string>

namespace hermes::bench {

struct Sizes {
  std::string name = "full";
  std::size_t append_messages = 20'000;     // Messages appended per append run.
  std::size_t corpus_messages = 1'000'000;  // Messages in the search corpus.
  std::size_t resume_messages = 10'000;     // Messages in the resumed session.
  std::size_t search_queries = 400;         // Queries timed for the latency percentiles.
};

// The sizes of this run (set by bench_main.cpp before the benchmarks start).
const Sizes& sizes();

// Where databases are written and cached corpora kept: $HERMES_BENCH_DIR when set (to
// measure another disk, or none with a tmpfs), else the build directory.
std::string cache_dir();

// Registration, once the sizes are known.
void register_append_benchmarks();
void register_search_benchmarks();
void register_resume_benchmarks();

}  // namespace hermes::bench
