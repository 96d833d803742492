// The iteration budget of a turn: how many model calls it may still make.
#pragma once

#include <algorithm>
#include <atomic>

namespace hermes::internal {

// Thread-safe because sub-agents and refunds may touch it from other threads.
class IterationBudget {
 public:
  explicit IterationBudget(int max_total) : max_total_(max_total) {}

  // Takes one iteration; false when none is left.
  bool consume() {
    int used = used_.load();
    do {
      if (used >= max_total_) return false;
    } while (!used_.compare_exchange_weak(used, used + 1));
    return true;
  }
  // Gives one back (an iteration that did not count), never below zero.
  void refund() {
    int used = used_.load();
    while (used > 0 && !used_.compare_exchange_weak(used, used - 1)) {
    }
  }
  int used() const { return used_.load(); }
  int max_total() const { return max_total_; }
  int remaining() const { return std::max(0, max_total_ - used_.load()); }

 private:
  const int max_total_;
  std::atomic<int> used_{0};
};

}  // namespace hermes::internal
