// hermes/runtime.hpp — many conversations on a few threads.
//
//   auto runtime = hermes::Runtime::create();            // one I/O thread, 16 tool workers
//   agent->run_conversation_async(**runtime, "Summarise README.md", {},
//                                 [](hermes::ConversationResult r) { /* a runtime thread */ });
//   std::future<hermes::ConversationResult> answer =
//       other->run_conversation_async(**runtime, "And the licence?");
//
// A turn started on a Runtime runs as a fiber (a stack of its own, switched in user
// space) on one of the runtime's I/O threads. Its model calls are transfers on that
// thread's libcurl multi handle: while one turn waits for its model, the thread runs the
// others. Retry backoff and interrupt waits are timers on the same thread; tool handlers
// run on worker threads, so a slow or stuck handler never holds an I/O thread. Streaming callbacks,
// hooks, memory providers and the completion callback run on the I/O thread: keep them short, or
// hand the work to a thread of your own.
//
// The synchronous Agent::chat() and run_conversation() do not need a Runtime and behave
// as before.
#pragma once

#include <cstddef>
#include <memory>

#include "hermes/export.hpp"
#include "hermes/status.hpp"

namespace hermes {

struct RuntimeOptions {
  // Threads that run turns and their HTTP transfers, 1 to 4. One drives hundreds of
  // conversations: a step's own CPU is a small fraction of the model's latency.
  int io_threads = 1;
  // Threads that run the tool calls without a deadline (AgentOptions::tool_use timeouts of
  // 0) and the calls of providers of your own, 1 to 1024; such a call waits for a free
  // worker. A call with a deadline (the default) runs on a thread of its own, reused from
  // call to call, so one that overruns is abandoned without holding anything.
  int tool_workers = 16;
  // Address space reserved for each running turn's stack, 64 KiB to 64 MiB. Pages are
  // committed as the turn touches them (a turn uses a few tens of KiB); the lowest page
  // is a guard. Sanitizer builds reserve four times this.
  std::size_t stack_bytes = std::size_t{1} << 20;
};

// What a runtime is doing, for dashboards and tests.
struct RuntimeStats {
  std::size_t turns_running = 0;  // Started and not yet ended.
  std::size_t transfers = 0;      // HTTP transfers in flight on the I/O threads.
  std::size_t tool_jobs = 0;      // Work queued or running on the tool workers.
  std::size_t turns_started = 0;  // Since the runtime was created.
};

// Thread-safety: every method may be called from any thread. An Agent runs at most one
// turn at a time, synchronous or not.
class HERMES_API Runtime {
 public:
  // InvalidArgument names an option out of range; Unavailable when a thread cannot start.
  static Result<std::unique_ptr<Runtime>> create(RuntimeOptions options = {});

  // Interrupts the turns still running (they end with interrupted set, their completion
  // callbacks run), waits for them, then stops the threads. Waits for tool handlers
  // still running. Must not be called from a runtime thread.
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  RuntimeStats stats() const;
  const RuntimeOptions& options() const;

  class Impl;
  Impl& impl() { return *impl_; }  // For the library's own use.

 private:
  explicit Runtime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
