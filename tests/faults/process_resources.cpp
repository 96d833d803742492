#include "faults/process_resources.hpp"

#include <chrono>
#include <filesystem>
#include <thread>

namespace hermes::testing {
namespace {

// 0 where there is no /proc (the counts then compare equal and check nothing).
std::size_t count_entries(const char* directory) {
  std::error_code error;
  std::size_t count = 0;
  for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    ++count;
  }
  return count;
}

}  // namespace

std::string ProcessResources::to_string() const {
  return std::to_string(threads) + " threads, " + std::to_string(fds) + " descriptors";
}

std::string open_descriptors() {
  std::string text;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end; !error && it != end;
       it.increment(error)) {
    std::error_code unreadable;
    text += it->path().filename().string() + "->" +
            std::filesystem::read_symlink(it->path(), unreadable).string() + " ";
  }
  return text;
}

ProcessResources count_process_resources() {
  ProcessResources counts;
  counts.threads = count_entries("/proc/self/task");
  // Listing /proc/self/fd holds one descriptor open for the listing itself.
  const std::size_t fds = count_entries("/proc/self/fd");
  counts.fds = fds > 0 ? fds - 1 : 0;
  return counts;
}

bool holds_more_than(const ProcessResources& before) {
  ProcessResources now = count_process_resources();
  for (int i = 0; i < 100 && now.threads > before.threads; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    now = count_process_resources();
  }
  return now.threads > before.threads || now.fds != before.fds;
}

}  // namespace hermes::testing
