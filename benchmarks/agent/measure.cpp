#include "measure.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

namespace hermes::bench {
namespace {

double seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

Stopwatch::Stopwatch()
    : wall_start_(seconds(CLOCK_MONOTONIC)), cpu_start_(seconds(CLOCK_PROCESS_CPUTIME_ID)) {}

Elapsed Stopwatch::elapsed() const {
  return {seconds(CLOCK_MONOTONIC) - wall_start_, seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start_};
}

int64_t peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int64_t current_rss_kib() {
  long pages = 0;
  long resident = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(statm);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::size_t heap_in_use() {
  return mallinfo2().uordblks;
}

}  // namespace hermes::bench
