#include "agent/timed_tool_group.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "common/fiber.hpp"
#include "common/spare_threads.hpp"
#include "safety/log.hpp"

namespace hermes::internal {

void ToolWorkers::started() {
  std::lock_guard lock(mu_);
  ++running_;
}

void ToolWorkers::finished() {
  std::lock_guard lock(mu_);
  if (--running_ == 0) idle_cv_.notify_all();
}

void ToolWorkers::wait_idle() {
  std::unique_lock lock(mu_);
  idle_cv_.wait(lock, [&] { return running_ == 0; });
}

std::size_t ToolWorkers::running() {
  std::lock_guard lock(mu_);
  return running_;
}

namespace {

// What the batch and the workers share; it lives as long as the last of them.
struct Group {
  Group(const ToolBatchEnv& batch_env, std::chrono::milliseconds deadline)
      : env(batch_env), timeout(deadline) {}

  ToolBatchEnv env;
  std::chrono::milliseconds timeout;
  std::vector<ToolInvocation> calls;  // Copies: the batch's own may be gone first.
  std::mutex mu;
  std::condition_variable done_cv;
  // The batch's fiber, when the batch runs on a runtime and waits parked. Guarded by mu.
  std::shared_ptr<FiberWakeup> parked;

  // Under mu: tells the waiting batch that a call has finished.
  void notify() {
    done_cv.notify_all();
    if (parked) parked->fire();
  }

  // Under `lock` (on mu): waits until `done()` holds or `deadline` passes. A batch on a
  // fiber parks (its I/O thread runs other turns meanwhile) instead of blocking.
  template <typename Done>
  void wait(std::unique_lock<std::mutex>& lock,
            std::optional<std::chrono::steady_clock::time_point> deadline, Done done) {
    Fiber* fiber = Fiber::current();
    if (!fiber) {
      if (deadline) {
        done_cv.wait_until(lock, *deadline, done);
      } else {
        done_cv.wait(lock, done);
      }
      return;
    }
    while (!done()) {
      const auto now = std::chrono::steady_clock::now();
      if (deadline && now >= *deadline) return;
      parked = std::make_shared<FiberWakeup>(*fiber);
      const auto wakeup = parked;
      lock.unlock();
      park_until(deadline.value_or(now + std::chrono::seconds(1)), wakeup);
      lock.lock();
      parked.reset();
    }
  }
  std::vector<std::optional<ToolRunResult>> results;
  // Of the calls under way: the start to finish them with when the deadline comes first.
  std::vector<std::optional<ToolCallStart>> starts;
  // Calls whose handler returned before the deadline: their worker finishes them (result
  // hooks, progress), and the deadline waits for that rather than finish them twice.
  std::vector<char> settling;
  std::size_t next = 0;  // The next call to start.
  std::size_t finished = 0;
  bool closed = false;  // Past the deadline: start nothing, settle nothing.
};

// Takes calls until none is left. Each is finished here unless the deadline came first.
void work(const std::shared_ptr<Group>& g) {
  for (;;) {
    std::size_t k;
    {
      std::lock_guard lock(g->mu);
      if (g->closed || g->next == g->calls.size()) return;
      k = g->next++;
    }
    ToolInvocation& inv = g->calls[k];
    ToolRunResult result;
    if (inv.preset_result || g->env.context.cancel.cancelled()) {
      result = unrun_call(inv, g->env);
    } else {
      ToolCallStart start = begin_call(inv, g->env);
      {
        std::unique_lock lock(g->mu);
        if (g->closed) {
          // The deadline came while the call was being started: answered without it.
          lock.unlock();
          finish_call(inv, start, {timed_out_tool_text(inv.call.name, g->timeout), true, {}},
                      g->env);
          return;
        }
        g->starts[k] = start;
      }
      result = execute_call(inv, start);
      {
        std::lock_guard lock(g->mu);
        if (g->closed) return;  // Answered at the deadline; this result is dropped.
        g->settling[k] = 1;
      }
      result = finish_call(inv, start, std::move(result), g->env);
    }
    std::lock_guard lock(g->mu);
    if (g->closed && !g->settling[k]) return;
    g->results[k] = std::move(result);
    ++g->finished;
    g->notify();
  }
}

bool spawn(const std::shared_ptr<Group>& g) {
  const std::shared_ptr<ToolWorkers> workers = g->env.workers;
  workers->started();
  try {
    run_on_spare_thread([g, workers] {
      work(g);
      workers->finished();
    });
    return true;
  } catch (const std::system_error& e) {
    workers->finished();
    HERMES_LOG_WARN("could not start a tool worker: {}", e.what());
    return false;
  }
}

}  // namespace

std::vector<ToolRunResult> run_timed_group(std::vector<ToolInvocation>& calls,
                                           const std::vector<std::size_t>& group,
                                           const ToolBatchEnv& env,
                                           std::chrono::milliseconds timeout) {
  auto g = std::make_shared<Group>(env, timeout);
  for (std::size_t i : group) g->calls.push_back(calls[i]);
  g->results.resize(group.size());
  g->starts.resize(group.size());
  g->settling.resize(group.size(), 0);
  const auto deadline = std::chrono::steady_clock::now() + timeout;

  const std::size_t n_workers =
      std::min<std::size_t>(group.size(), static_cast<std::size_t>(std::max(1, env.max_workers)));
  std::size_t spawned = 0;
  for (std::size_t w = 0; w < n_workers; ++w) spawned += spawn(g) ? 1 : 0;

  std::vector<ToolRunResult> out(group.size());
  std::unique_lock lock(g->mu);
  if (spawned == 0) {
    // No thread to spare: run the calls here, without a deadline.
    lock.unlock();
    work(g);
    lock.lock();
  }
  g->wait(lock, deadline, [&] { return g->finished == g->calls.size(); });
  g->closed = true;
  // A call whose handler returned in time is being finished by its worker: it keeps its
  // result, and its post_tool_call hook and completion report run once.
  g->wait(lock, std::nullopt, [&] {
    for (std::size_t k = 0; k < g->calls.size(); ++k) {
      if (g->settling[k] && !g->results[k]) return false;
    }
    return true;
  });
  std::vector<std::size_t> overdue;
  for (std::size_t k = 0; k < g->calls.size(); ++k) {
    if (g->results[k]) {
      out[k] = std::move(*g->results[k]);
    } else {
      if (g->starts[k]) g->starts[k]->context.cancel.cancel();
      overdue.push_back(k);
    }
  }
  lock.unlock();
  // From here on the workers touch neither `starts` nor `results`.
  for (std::size_t k : overdue) {
    const ToolInvocation& inv = g->calls[k];
    ToolRunResult late{timed_out_tool_text(inv.call.name, timeout), true, {}};
    if (g->starts[k]) {
      HERMES_LOG_WARN("tool {} did not finish within {} ms; it is left to stop on its own",
                      inv.call.name, timeout.count());
      if (const auto& span = g->starts[k]->span) span->finish(late.content, true, "timeout");
      out[k] = finish_call(inv, *g->starts[k], std::move(late), env);
    } else {
      out[k] = std::move(late);  // Never started: nothing to report but the answer.
    }
  }
  return out;
}

}  // namespace hermes::internal
