// The inside of hermes::Runtime: the tool workers, the I/O loops, and the turns that run
// on them (so that destroying the runtime can interrupt them).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/worker_pool.hpp"
#include "hermes/runtime.hpp"
#include "providers/io_loop.hpp"

namespace hermes {

class Runtime::Impl {
 public:
  explicit Impl(RuntimeOptions options);
  // Interrupts the turns still registered, then waits for every fiber to end.
  ~Impl();

  // Runs `turn(id)` as a fiber on the least busy loop. `interrupt` is called (under the
  // runtime's lock) when the runtime goes away while the turn is registered; the turn
  // calls finish(id) before anything `interrupt` touches can go away.
  void start(std::function<void(uint64_t)> turn, std::function<void()> interrupt);
  void finish(uint64_t id);

  RuntimeStats stats() const;
  const RuntimeOptions& options() const { return options_; }

 private:
  RuntimeOptions options_;
  internal::WorkerPool workers_;
  std::vector<std::unique_ptr<internal::IoLoop>> loops_;
  mutable std::mutex mu_;
  std::map<uint64_t, std::function<void()>> running_;  // Guarded by mu_.
  uint64_t next_id_ = 1;                               // Guarded by mu_.
  std::size_t started_ = 0;                            // Guarded by mu_.
};

}  // namespace hermes
