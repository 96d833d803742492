// Wall and CPU clocks, peak RSS and heap in use: what the agent benchmark reports.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hermes::bench {

// Wall and process CPU time (all threads) of one measured stretch, in seconds.
struct Elapsed {
  double wall = 0;
  double cpu = 0;
};

class Stopwatch {
 public:
  Stopwatch();
  Elapsed elapsed() const;

 private:
  double wall_start_;
  double cpu_start_;
};

// The process's peak resident set so far, in KiB.
int64_t peak_rss_kib();
// The resident set now, in KiB.
int64_t current_rss_kib();
// Bytes the allocator has handed out and not yet had back (glibc's mallinfo2).
std::size_t heap_in_use();

}  // namespace hermes::bench
