// The events of a turn as a queue a C caller pulls from (hermes_stream_next). The agent's
// callbacks are wrapped once, when the agent is created, to publish to its tap; a stream
// attaches a queue to the tap for the duration of its turn.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

#include "hermes/callbacks.hpp"
#include "hermes/json.hpp"

namespace hermes::capi {

// Events in arrival order, for one consumer thread.
class EventQueue {
 public:
  void push(Json event);
  // The next event, waiting up to `timeout` (negative: without limit); nullopt when the
  // time ran out.
  std::optional<Json> pop(std::chrono::milliseconds timeout);

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Json> events_;
};

// The queue currently listening to an agent, if any.
class EventTap {
 public:
  void attach(std::shared_ptr<EventQueue> queue);
  void detach();
  bool attached() const;
  // Builds the event only when someone listens.
  template <typename MakeEvent>
  void publish(MakeEvent&& make_event) {
    std::shared_ptr<EventQueue> queue;
    {
      std::lock_guard lock(mutex_);
      queue = queue_;
    }
    if (queue) queue->push(make_event());
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<EventQueue> queue_;
};

// {"phase", "call_id", "name", "preview", and when completed "duration_ms", "is_error",
// "result"}: a tool progress event as the C callbacks and the stream report it.
Json tool_progress_json(const ToolProgress& progress);

// Makes the text, reasoning, tool progress and status callbacks also publish to `tap`
// (each still calls the caller's own callback first).
void tap_callbacks(Callbacks& callbacks, const std::shared_ptr<EventTap>& tap);

}  // namespace hermes::capi
