// The thread-safe part of an agent: interrupt and steer requests that arrive from other
// threads while a turn runs.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "hermes/cancel.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

class TurnControl {
 public:
  // Starts a turn: returns the token its work listens to. If an interrupt arrived since
  // the last turn ended, the token is already cancelled.
  CancelToken begin_turn();
  // Ends a turn: clears the interrupt (upstream clears it in the finalizer).
  void end_turn();

  void interrupt(const std::string& message);
  bool interrupted() const { return interrupted_.load(std::memory_order_acquire); }
  std::string interrupt_message() const;

  // Queues guidance; several steers before a delivery point are joined with "\n".
  Status steer(const std::string& text);
  // Takes the queued guidance ("" when none).
  std::string take_steer();
  bool has_steer() const;

 private:
  mutable std::mutex mu_;
  std::atomic<bool> interrupted_{false};
  std::string interrupt_message_;
  std::string pending_steer_;
  CancelToken token_;
};

}  // namespace hermes::internal
