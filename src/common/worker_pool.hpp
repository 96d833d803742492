// A fixed set of threads that run queued jobs in order of arrival: where a runtime's
// fibers send the work that would block their I/O thread (tool handlers).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hermes::internal {

class WorkerPool {
 public:
  // Starts `threads` workers (at least one). Throws std::system_error when none starts.
  explicit WorkerPool(std::size_t threads);
  // Runs the jobs still queued, then joins the workers (waiting for running jobs).
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `job`. Any thread, also a worker. `job` must not throw.
  void submit(std::function<void()> job);

  // Jobs queued or running.
  std::size_t pending() const;
  std::size_t size() const { return threads_.size(); }

 private:
  void work();

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // Guarded by mu_.
  std::size_t running_ = 0;                 // Guarded by mu_.
  bool stopping_ = false;                   // Guarded by mu_.
  std::vector<std::thread> threads_;
};

}  // namespace hermes::internal
