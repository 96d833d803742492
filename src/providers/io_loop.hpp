// One I/O thread of a Runtime: it resumes its fibers (turns) and drives their HTTP
// transfers on one libcurl multi handle, with timers for their sleeps. A fiber's
// transfer parks the fiber; the loop resumes it when the transfer ends, so a thread
// carries as many conversations as it has sockets.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/fiber.hpp"
#include "common/worker_pool.hpp"
#include "providers/curl_driver.hpp"

namespace hermes::internal {

class IoLoop final : public FiberHost {
 public:
  // Starts the thread. Fibers get stacks of `stack_bytes`; their blocking work goes to
  // `workers`, which must outlive the loop. Throws std::runtime_error when libcurl or the
  // thread cannot be set up.
  IoLoop(WorkerPool& workers, std::size_t stack_bytes);
  // Waits for every fiber to end, then stops the thread. Not from the loop's thread.
  ~IoLoop() override;
  IoLoop(const IoLoop&) = delete;
  IoLoop& operator=(const IoLoop&) = delete;

  // Runs `body` as a new fiber on this loop. Any thread. `body` must not throw.
  void spawn(std::function<void()> body);

  void post(Fiber& fiber) override;
  void wake_at(std::chrono::steady_clock::time_point when,
               std::shared_ptr<FiberWakeup> wakeup) override;
  void run_on_worker(std::function<void()> work) override;

  // The loop whose fiber is running on the calling thread, or nullptr.
  static IoLoop* current();

  // On a fiber of this loop: runs `easy` (configured, not added to any multi handle) on
  // the loop's multi handle and parks the fiber until the transfer ends, or until
  // `should_abort` (asked at least every 100 ms) returns true, which gives
  // CURLE_ABORTED_BY_CALLBACK. A multi handle failure sets `multi_error`.
  CURLcode perform(CURL* easy, const std::function<bool()>& should_abort, std::string& multi_error);

  // An easy handle of the loop's own, reset by the caller; given back after use. On a
  // fiber of this loop. nullptr when libcurl cannot make one.
  CURL* take_easy();
  void give_back_easy(CURL* easy);

  std::size_t fibers() const { return fibers_.load(std::memory_order_relaxed); }
  std::size_t transfers() const { return transfers_.load(std::memory_order_relaxed); }

 private:
  struct Pending;
  struct Timer {
    std::chrono::steady_clock::time_point when;
    std::shared_ptr<FiberWakeup> wakeup;
    bool operator>(const Timer& other) const { return when > other.when; }
  };

  void run();
  void resume_ready();
  void finish_transfers();
  void abort_transfers();
  void fire_timers(std::chrono::steady_clock::time_point now);
  void end_transfer(CURL* easy, CURLcode code);
  long poll_timeout_ms(std::chrono::steady_clock::time_point now) const;

  WorkerPool& workers_;
  const std::size_t stack_bytes_;
  CURLM* multi_ = nullptr;
  std::unique_ptr<CurlDriver> driver_;

  std::mutex mu_;
  std::vector<Fiber*> posted_;                 // Guarded by mu_.
  std::vector<std::function<void()>> spawns_;  // Guarded by mu_.
  bool stopping_ = false;                      // Guarded by mu_.

  // The loop thread's own.
  std::unordered_map<Fiber*, std::unique_ptr<Fiber>> owned_;
  std::unordered_map<CURL*, Pending*> active_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::vector<CURL*> idle_easies_;
  std::chrono::steady_clock::time_point next_abort_check_{};

  std::atomic<std::size_t> fibers_{0};
  std::atomic<std::size_t> transfers_{0};
  std::thread thread_;
};

}  // namespace hermes::internal
