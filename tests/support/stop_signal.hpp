// A one-way flag that wakes every sleeper when raised: how the mock server's destructor
// cuts short the delays scripted into responses.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace hermes::testing {

class StopSignal {
 public:
  void raise() {
    {
      std::lock_guard lock(mutex_);
      raised_ = true;
    }
    woken_.notify_all();
  }

  bool raised() const {
    std::lock_guard lock(mutex_);
    return raised_;
  }

  // Sleeps for `duration` unless the signal is raised first. True when the full
  // duration passed without the signal.
  bool sleep_for(std::chrono::milliseconds duration) {
    if (duration <= std::chrono::milliseconds::zero()) return !raised();
    std::unique_lock lock(mutex_);
    return !woken_.wait_for(lock, duration, [this] { return raised_; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable woken_;
  bool raised_ = false;
};

}  // namespace hermes::testing
