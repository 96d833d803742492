#include "faults/process_resources.hpp"

#include <filesystem>

namespace hermes::testing {
namespace {

std::size_t count_entries(const char* directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) {
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
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    text += entry.path().filename().string() + "->" +
            std::filesystem::read_symlink(entry.path(), error).string() + " ";
  }
  return text;
}

ProcessResources count_process_resources() {
  ProcessResources counts;
  counts.threads = count_entries("/proc/self/task");
  // Listing /proc/self/fd holds one descriptor open for the listing itself.
  counts.fds = count_entries("/proc/self/fd") - 1;
  return counts;
}

}  // namespace hermes::testing
