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

// Every open descriptor with what it refers to, for a failure message.
std::string open_descriptors();

}  // namespace hermes::testing
