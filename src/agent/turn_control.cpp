#include "agent/turn_control.hpp"

#include "common/text_utils.hpp"

namespace hermes::internal {

CancelToken TurnControl::begin_turn() {
  std::lock_guard<std::mutex> lock(mu_);
  token_ = CancelToken();
  if (interrupted_) token_.cancel();
  return token_;
}

void TurnControl::end_turn() {
  std::lock_guard<std::mutex> lock(mu_);
  interrupted_ = false;
  interrupt_message_.clear();
}

void TurnControl::interrupt(const std::string& message) {
  std::lock_guard<std::mutex> lock(mu_);
  interrupted_ = true;
  interrupt_message_ = message;
  // An interrupt discards guidance that was not delivered yet.
  pending_steer_.clear();
  token_.cancel();
}

std::string TurnControl::interrupt_message() const {
  std::lock_guard<std::mutex> lock(mu_);
  return interrupt_message_;
}

Status TurnControl::steer(const std::string& text) {
  std::string trimmed = strip(text);
  if (trimmed.empty()) return Status::invalid_argument("steer text is empty");
  std::lock_guard<std::mutex> lock(mu_);
  if (!pending_steer_.empty()) pending_steer_ += "\n";
  pending_steer_ += trimmed;
  return {};
}

std::string TurnControl::take_steer() {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  out.swap(pending_steer_);
  return out;
}

bool TurnControl::has_steer() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !pending_steer_.empty();
}

}  // namespace hermes::internal
