#include "common/spare_threads.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace hermes::internal {
namespace {

// How long a thread with nothing to do stays for the next job.
constexpr auto kIdleLifetime = std::chrono::seconds(10);
// At most this many idle threads wait; beyond them a finished thread exits.
constexpr std::size_t kMaxIdle = 64;

// One idle thread's mailbox.
struct Slot {
  std::function<void()> job;  // Set by the giver, under the pool's lock.
  std::condition_variable wake;
};

struct Pool {
  std::mutex mu;
  std::vector<Slot*> idle;  // Threads waiting for a job, most recent last.

  // Runs `job`, then offers the thread for the next one until kIdleLifetime passes.
  void serve(std::function<void()> job) {
    Slot slot;
    for (;;) {
      job();
      job = nullptr;
      std::unique_lock lock(mu);
      if (idle.size() >= kMaxIdle) return;
      idle.push_back(&slot);
      const bool given = slot.wake.wait_for(lock, kIdleLifetime, [&] { return bool(slot.job); });
      if (!given) {
        // Nobody took this thread off the list while it waited: take it off and exit.
        idle.erase(std::find(idle.begin(), idle.end(), &slot));
        return;
      }
      job = std::move(slot.job);
      slot.job = nullptr;
    }
  }
};

Pool* shared_pool = nullptr;

// A child of fork() has none of its parent's threads: the idle ones it would hand jobs to
// do not exist there. The lock is held across the fork so the list is consistent.
void before_fork() {
  shared_pool->mu.lock();
}
void after_fork_in_parent() {
  shared_pool->mu.unlock();
}
void after_fork_in_child() {
  shared_pool->idle.clear();
  shared_pool->mu.unlock();
}

// Leaked: idle threads may still wait on it while the process exits.
Pool& pool() {
  static Pool* shared = [] {
    shared_pool = new Pool();
    pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child);
    return shared_pool;
  }();
  return *shared;
}

}  // namespace

void run_on_spare_thread(std::function<void()> job) {
  Pool& p = pool();
  {
    std::lock_guard lock(p.mu);
    if (!p.idle.empty()) {
      Slot* slot = p.idle.back();
      p.idle.pop_back();
      slot->job = std::move(job);
      slot->wake.notify_one();
      return;
    }
  }
  std::thread([&p, job = std::move(job)]() mutable { p.serve(std::move(job)); }).detach();
}

}  // namespace hermes::internal
