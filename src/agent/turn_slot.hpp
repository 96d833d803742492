// Whether an agent runs a turn, synchronous or started with run_conversation_async: a
// second turn meanwhile is refused, and the agent's destructor waits for the running one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "common/fiber.hpp"

namespace hermes::internal {

class TurnSlot {
 public:
  // Takes the slot; false when a turn holds it.
  bool try_claim() {
    std::lock_guard lock(mu_);
    if (busy_) return false;
    busy_ = true;
    return true;
  }
  // Notifies under the lock: a waiting destructor may destroy the slot as soon as it
  // sees the slot free.
  void release() {
    std::lock_guard lock(mu_);
    busy_ = false;
    free_.notify_all();
    if (parked_) parked_->fire();
  }
  // Calls `interrupt` until the turn has released the slot. Repeated, because a turn
  // clears the interrupt when it ends and one that arrives just before it starts would
  // otherwise be its only chance.
  //
  // On a runtime's fiber (an agent destroyed in another turn's callback) the wait parks
  // the fiber instead of blocking its thread, which may be the one that must finish the
  // turn; release() wakes it.
  void interrupt_and_wait(const std::function<void()>& interrupt) {
    constexpr auto kRepeat = std::chrono::milliseconds(100);
    std::unique_lock lock(mu_);
    while (busy_) {
      Fiber* fiber = Fiber::current();
      std::shared_ptr<FiberWakeup> wakeup;
      if (fiber) {
        // One waiter: the agent's destructor, which runs once.
        wakeup = parked_ = std::make_shared<FiberWakeup>(*fiber);
      }
      lock.unlock();
      interrupt();
      if (wakeup) {
        park_until(std::chrono::steady_clock::now() + kRepeat, wakeup);
        lock.lock();
        parked_.reset();
      } else {
        lock.lock();
        free_.wait_for(lock, kRepeat, [&] { return !busy_; });
      }
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable free_;
  bool busy_ = false;
  std::shared_ptr<FiberWakeup> parked_;  // A fiber waiting in interrupt_and_wait.
};

// Releases a claimed slot when the synchronous turn that claimed it returns.
class TurnSlotClaim {
 public:
  explicit TurnSlotClaim(TurnSlot& slot) : slot_(slot.try_claim() ? &slot : nullptr) {}
  ~TurnSlotClaim() {
    if (slot_) slot_->release();
  }
  TurnSlotClaim(const TurnSlotClaim&) = delete;
  TurnSlotClaim& operator=(const TurnSlotClaim&) = delete;
  bool held() const { return slot_ != nullptr; }

 private:
  TurnSlot* slot_;
};

}  // namespace hermes::internal
