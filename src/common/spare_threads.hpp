// Threads for work that may never return (a tool call past its deadline is left to finish
// on its own): each job gets a thread of its own at once, never waiting for another, but
// a thread whose job has returned waits a while for the next one instead of exiting, so a
// busy process does not pay for a thread per call.
#pragma once

#include <functional>

namespace hermes::internal {

// Runs `job` on a thread of its own: a spare one when one is idle, else a new one.
// Throws std::system_error when no thread can be started. `job` must not throw.
void run_on_spare_thread(std::function<void()> job);

}  // namespace hermes::internal
