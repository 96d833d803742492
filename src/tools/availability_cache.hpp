// Remembered answers of the tools' availability probes, so that building a tool list for
// every model call does not re-run a probe that may start a process or touch the network.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "hermes/tool.hpp"

namespace hermes::internal {

class AvailabilityCache {
 public:
  using Clock = std::chrono::steady_clock;

  // A probe that fails this soon after it last succeeded is taken for a flake: the tool
  // stays offered, and the next call asks again. Answers are kept for the spec's
  // availability_ttl.
  static constexpr std::chrono::seconds kFlakeGrace{60};
  static constexpr std::size_t kMaxEntries = 512;

  explicit AvailabilityCache(std::function<Clock::time_point()> now = Clock::now)
      : now_(std::move(now)) {}

  // Whether `spec` is available: true without a probe; a probe that throws says false.
  bool available(const ToolSpec& spec);
  // Forgets the answers for `name` (re-registered or removed).
  void forget(const std::string& name);

 private:
  struct Entry {
    const ToolSpec* spec = nullptr;  // The registration the answer belongs to.
    bool available = false;
    Clock::time_point expires{};
    Clock::time_point last_success{};
    bool ever_succeeded = false;
  };
  void make_room(Clock::time_point now);

  std::function<Clock::time_point()> now_;
  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;  // By tool name.
};

}  // namespace hermes::internal
