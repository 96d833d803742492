#include "turn_worker.hpp"

namespace hermes_cli {

TurnWorker::~TurnWorker() {
  if (thread_.joinable()) thread_.join();
}

void TurnWorker::start(hermes::Agent& agent, std::string message) {
  busy_ = true;
  finished_ = false;
  thread_ = std::thread([this, &agent, message = std::move(message)] {
    result_ = agent.run_conversation(message);
    finished_ = true;
    if (on_done_) on_done_();
  });
}

std::optional<hermes::ConversationResult> TurnWorker::collect() {
  if (!busy_ || !finished_) return std::nullopt;
  return wait();
}

std::optional<hermes::ConversationResult> TurnWorker::wait() {
  if (!busy_) return std::nullopt;
  if (thread_.joinable()) thread_.join();
  busy_ = false;
  return std::move(result_);
}

}  // namespace hermes_cli
