// Fibers: code written as a plain blocking sequence (a turn) that runs on a stack of its
// own and gives its thread back whenever it waits. A FiberHost (the runtime's I/O loop)
// resumes its fibers on one thread; the blocking points of the library (an HTTP transfer,
// a retry sleep, a tool handler) check Fiber::current() and, on a fiber, park it instead
// of blocking the thread.
//
// A park is matched by exactly one post: whoever wakes a parked fiber posts it once, and
// the host resumes it only after it has parked, so a post that races the park is simply
// queued. FiberWakeup makes "the first of several events wakes it" safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace hermes::internal {

class FiberHost;

class Fiber {
 public:
  // A fiber that will run `body` (which must not throw: an escaping exception is dropped)
  // on a stack of `stack_bytes` (rounded up to pages, plus a guard page).
  Fiber(FiberHost& host, std::function<void()>&& body, std::size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // On the host's thread: runs the fiber until it parks or ends; true once it has ended.
  bool resume();

  // On the fiber: switches back to resume()'s caller until the host resumes it again.
  void park();

  FiberHost& host() const { return host_; }

  // The fiber running on the calling thread, or nullptr.
  static Fiber* current();

 private:
  struct Context;
  FiberHost& host_;
  std::unique_ptr<Context> ctx_;
};

// Wakes a parked fiber once, however many events race to do it.
class FiberWakeup {
 public:
  explicit FiberWakeup(Fiber& fiber) : fiber_(fiber) {}
  // Posts the fiber when this is the first fire. Any thread.
  void fire();

 private:
  std::atomic<bool> armed_{true};
  Fiber& fiber_;
};

// What resumes fibers: one thread's loop.
class FiberHost {
 public:
  virtual ~FiberHost() = default;
  // Queues a parked fiber to be resumed. Any thread.
  virtual void post(Fiber& fiber) = 0;
  // Fires `wakeup` at `when`. On the host's thread (from one of its fibers).
  virtual void wake_at(std::chrono::steady_clock::time_point when,
                       std::shared_ptr<FiberWakeup> wakeup) = 0;
  // Runs `work` on a worker thread. Any thread. `work` must not throw.
  virtual void run_on_worker(std::function<void()> work) = 0;
};

// Parks the current fiber until `when` or until `wakeup` fires (whichever is first).
// Requires Fiber::current().
void park_until(std::chrono::steady_clock::time_point when,
                const std::shared_ptr<FiberWakeup>& wakeup);

// On a fiber: runs `work` on the host's workers and parks until it returns, rethrowing
// what it threw. Elsewhere: calls `work` here.
void run_blocking(const std::function<void()>& work);

}  // namespace hermes::internal
