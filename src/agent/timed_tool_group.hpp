// Tool calls with a deadline. A C++ handler cannot be stopped from outside, only asked to
// stop through its cancel token, so a call that overruns is left to finish on its own
// thread while the batch answers it with the timeout text and goes on.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

#include "agent/tool_executor.hpp"

namespace hermes::internal {

// Counts the workers of calls with a deadline. The calls they run still use the agent's
// tool state, hooks and callbacks, so the agent waits for them before it goes away.
class ToolWorkers {
 public:
  void started();
  void finished();
  // Blocks until every worker has returned.
  void wait_idle();
  std::size_t running();

 private:
  std::mutex mu_;
  std::condition_variable idle_cv_;
  std::size_t running_ = 0;
};

// Runs calls[i] for each i of `group` on workers of their own (at most env.max_workers at
// once) and waits at most `timeout` for all of them. Returns the results in group order;
// a call unfinished at the deadline gets timed_out_tool_text, its cancel token fires, and
// its own result is dropped when it comes. Requires env.workers. On a runtime's fiber
// the batch parks while it waits (the I/O thread runs other turns).
std::vector<ToolRunResult> run_timed_group(std::vector<ToolInvocation>& calls,
                                           const std::vector<std::size_t>& group,
                                           const ToolBatchEnv& env,
                                           std::chrono::milliseconds timeout);

}  // namespace hermes::internal
