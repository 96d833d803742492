#include "common/worker_pool.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace hermes::internal {

WorkerPool::WorkerPool(std::size_t threads) {
  threads_.reserve(threads);
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) {
    try {
      threads_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
      if (threads_.empty()) throw;
      break;  // Fewer workers than asked: still a pool.
    }
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void WorkerPool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

std::size_t WorkerPool::pending() const {
  std::lock_guard lock(mu_);
  return jobs_.size() + running_;
}

void WorkerPool::work() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // Stopping, and nothing left to run.
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    ++running_;
    lock.unlock();
    job();
    job = nullptr;  // Its captures go before the count says it is done.
    lock.lock();
    --running_;
  }
}

}  // namespace hermes::internal
