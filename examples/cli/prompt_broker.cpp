#include "prompt_broker.hpp"

namespace hermes_cli {

std::optional<std::string> PromptBroker::ask(const std::function<void()>& show,
                                             std::chrono::milliseconds timeout) {
  uint64_t mine = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_ = true;
    answer_.reset();
    mine = ++generation_;
  }
  if (show) show();
  if (on_question_) on_question_();
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return !pending_ || generation_ != mine; });
  if (generation_ != mine) return std::nullopt;
  pending_ = false;
  return std::move(answer_);
}

bool PromptBroker::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_;
}

bool PromptBroker::answer(const std::string& line) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!pending_) return false;
    answer_ = line;
    pending_ = false;
  }
  cv_.notify_all();
  return true;
}

void PromptBroker::cancel() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!pending_) return;
    answer_.reset();
    pending_ = false;
  }
  cv_.notify_all();
}

}  // namespace hermes_cli
