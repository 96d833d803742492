// Events reported from other threads, waited for with a hang guard (not a timing check).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace hermes::testing {

class EventSignal {
 public:
  static constexpr auto kPatience = std::chrono::seconds(30);

  // Records one event, with an optional value.
  void raise(std::string value = "") {
    std::lock_guard<std::mutex> lock(mu_);
    values_.push_back(std::move(value));
    cv_.notify_all();
  }
  // True once `count` events were raised; false after kPatience without them.
  bool wait(std::size_t count = 1) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, kPatience, [&] { return values_.size() >= count; });
  }
  std::vector<std::string> values() {
    std::lock_guard<std::mutex> lock(mu_);
    return values_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> values_;
};

}  // namespace hermes::testing
