// What the process holds open, to find threads and descriptors a test case leaked.
#pragma once

#include <cstddef>
#include <string>

namespace hermes::testing {

struct ProcessResources {
  std::size_t threads = 0;  // Entries of /proc/self/task.
  std::size_t fds = 0;      // Entries of /proc/self/fd (the directory's own excluded).

  bool operator==(const ProcessResources&) const = default;
  std::string to_string() const;
};

// Zero counts where the system has no /proc.
ProcessResources count_process_resources();

// Whether `now` holds more than `before`: more threads or other descriptors. A thread that
// finished its work may take a moment to exit, so the threads are counted again for up to
// two seconds before they count as leaked; fewer threads than before (one that outlived
// the previous case has exited since) is no leak.
bool holds_more_than(const ProcessResources& before);

// Every open descriptor with what it refers to, for a failure message.
std::string open_descriptors();

}  // namespace hermes::testing
