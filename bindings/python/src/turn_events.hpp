// The events of a turn run by agent.stream() or agent.astream(): a queue between the
// thread that runs the turn (producer, never holding the GIL) and the Python iterator
// (consumer), and the tap through which an agent's callbacks feed the queue while a
// stream is attached.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "hermes/json.hpp"

namespace hermes::python {

// An unbounded queue of event dicts (as Json), closed once the turn is over. Unbounded so
// that the turn never waits for a slow or departed consumer. Thread-safe.
class TurnEventQueue {
 public:
  TurnEventQueue() = default;
  // `on_push` runs on the pushing thread after each push, outside the queue's lock (how
  // an asyncio consumer gets woken).
  explicit TurnEventQueue(std::function<void()> on_push) : on_push_(std::move(on_push)) {}

  void push(Json event);
  // No more events will come.
  void close();

  enum class Wait { kEvent, kClosed, kTimedOut };
  // Takes the next event into `out`, waiting at most `timeout` for one.
  Wait pop(Json& out, std::chrono::milliseconds timeout);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Json> events_;
  bool closed_ = false;
  std::function<void()> on_push_;
};

// The agent-side end: the agent's callbacks emit into whichever queue is attached (at
// most one: one turn at a time). Thread-safe.
class EventTap {
 public:
  void attach(std::shared_ptr<TurnEventQueue> queue);
  void detach();
  bool attached() const;
  void emit(Json event) const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<TurnEventQueue> queue_;
};

}  // namespace hermes::python
