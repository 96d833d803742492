#include "hermes/cancel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "common/fiber.hpp"

namespace hermes {

struct CancelToken::State {
  std::atomic<bool> flag{false};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::weak_ptr<State>> children;  // Guarded by mu.
  // Fibers parked in wait_for (they cannot wait on cv). Guarded by mu.
  std::vector<std::shared_ptr<internal::FiberWakeup>> parked;

  void cancel() {
    std::vector<std::shared_ptr<State>> to_cancel;
    std::vector<std::shared_ptr<internal::FiberWakeup>> to_wake;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (flag.exchange(true)) return;
      for (auto& weak : children) {
        if (auto child = weak.lock()) to_cancel.push_back(std::move(child));
      }
      children.clear();
      to_wake.swap(parked);
    }
    cv.notify_all();
    for (auto& wakeup : to_wake) wakeup->fire();
    for (auto& child : to_cancel) child->cancel();
  }
};

CancelToken::CancelToken() : state_(std::make_shared<State>()) {}

void CancelToken::cancel() const {
  state_->cancel();
}

bool CancelToken::cancelled() const {
  return state_->flag.load(std::memory_order_acquire);
}

bool CancelToken::wait_for(std::chrono::milliseconds duration) const {
  if (internal::Fiber* fiber = internal::Fiber::current()) {
    // A fiber parks on a timer of its host and is woken early by cancel().
    auto wakeup = std::make_shared<internal::FiberWakeup>(*fiber);
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      if (state_->flag.load()) return true;
      state_->parked.push_back(wakeup);
    }
    internal::park_until(std::chrono::steady_clock::now() + duration, wakeup);
    std::lock_guard<std::mutex> lock(state_->mu);
    auto& parked = state_->parked;
    parked.erase(std::remove(parked.begin(), parked.end(), wakeup), parked.end());
    return state_->flag.load();
  }
  std::unique_lock<std::mutex> lock(state_->mu);
  return state_->cv.wait_for(lock, duration, [&] { return state_->flag.load(); });
}

CancelToken CancelToken::child() const {
  CancelToken child;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->flag.load()) {
      // Drop children that are gone so a long-lived parent does not accumulate them.
      auto& kids = state_->children;
      kids.erase(std::remove_if(kids.begin(), kids.end(),
                                [](const std::weak_ptr<State>& w) { return w.expired(); }),
                 kids.end());
      kids.push_back(child.state_);
      return child;
    }
  }
  child.cancel();
  return child;
}

}  // namespace hermes
