// Publishing an agent's callbacks to the stream that listens to it.
#include "c_event_tap.hpp"

namespace hermes::capi {

void EventQueue::push(Json event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  ready_.notify_one();
}

std::optional<Json> EventQueue::pop(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  auto has_event = [this] { return !events_.empty(); };
  if (timeout.count() < 0) {
    ready_.wait(lock, has_event);
  } else if (!ready_.wait_for(lock, timeout, has_event)) {
    return std::nullopt;
  }
  Json event = std::move(events_.front());
  events_.pop_front();
  return event;
}

void EventTap::attach(std::shared_ptr<EventQueue> queue) {
  std::lock_guard lock(mutex_);
  queue_ = std::move(queue);
}

void EventTap::detach() {
  std::lock_guard lock(mutex_);
  queue_.reset();
}

bool EventTap::attached() const {
  std::lock_guard lock(mutex_);
  return queue_ != nullptr;
}

Json tool_progress_json(const ToolProgress& p) {
  Json j{{"phase", p.phase == ToolProgress::Phase::kStarted ? "started" : "completed"},
         {"call_id", p.call_id},
         {"name", p.name},
         {"preview", p.preview}};
  if (p.phase == ToolProgress::Phase::kCompleted) {
    j["duration_ms"] = p.duration.count();
    j["is_error"] = p.is_error;
    j["result"] = std::string(p.result);
  }
  return j;
}

namespace {

Json text_event(const char* type, std::string_view text) {
  return Json{{"type", type}, {"text", std::string(text)}};
}

}  // namespace

void tap_callbacks(Callbacks& callbacks, const std::shared_ptr<EventTap>& tap) {
  callbacks.on_stream_delta = [tap, own = std::move(callbacks.on_stream_delta)](std::string_view delta) {
    if (own) own(delta);
    if (!delta.empty()) tap->publish([&] { return text_event("text", delta); });
  };
  callbacks.on_reasoning_delta = [tap, own = std::move(callbacks.on_reasoning_delta)](std::string_view delta) {
    if (own) own(delta);
    if (!delta.empty()) tap->publish([&] { return text_event("reasoning", delta); });
  };
  callbacks.on_tool_progress = [tap, own = std::move(callbacks.on_tool_progress)](const ToolProgress& p) {
    if (own) own(p);
    tap->publish([&] {
      Json event = tool_progress_json(p);
      event["type"] = "tool";
      return event;
    });
  };
  callbacks.on_status = [tap, own = std::move(callbacks.on_status)](std::string_view kind,
                                                                    std::string_view message) {
    if (own) own(kind, message);
    tap->publish([&] {
      return Json{{"type", "status"}, {"kind", std::string(kind)}, {"message", std::string(message)}};
    });
  };
}

}  // namespace hermes::capi
