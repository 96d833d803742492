#include "turn_events.hpp"

#include <utility>

namespace hermes::python {

void TurnEventQueue::push(Json event) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(event));
  }
  cv_.notify_one();
  if (on_push_) on_push_();
}

void TurnEventQueue::close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
  }
  cv_.notify_all();
}

TurnEventQueue::Wait TurnEventQueue::pop(Json& out, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, timeout, [this] { return !events_.empty() || closed_; })) {
    return Wait::kTimedOut;
  }
  if (events_.empty()) return Wait::kClosed;
  out = std::move(events_.front());
  events_.pop_front();
  return Wait::kEvent;
}

void EventTap::attach(std::shared_ptr<TurnEventQueue> queue) {
  std::lock_guard<std::mutex> lock(mu_);
  queue_ = std::move(queue);
}

void EventTap::detach() {
  std::lock_guard<std::mutex> lock(mu_);
  queue_.reset();
}

bool EventTap::attached() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_ != nullptr;
}

void EventTap::emit(Json event) const {
  std::shared_ptr<TurnEventQueue> queue;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue = queue_;
  }
  if (queue) queue->push(std::move(event));
}

}  // namespace hermes::python
