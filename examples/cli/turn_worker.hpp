// TurnWorker: runs one turn of an agent on its own thread, so the terminal stays live
// (/steer, /stop, Ctrl+C) while the model and the tools work.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "hermes/hermes.hpp"

namespace hermes_cli {

class TurnWorker {
 public:
  // `on_done` runs on the worker thread when a turn ends (to wake the input loop).
  explicit TurnWorker(std::function<void()> on_done) : on_done_(std::move(on_done)) {}
  ~TurnWorker();
  TurnWorker(const TurnWorker&) = delete;
  TurnWorker& operator=(const TurnWorker&) = delete;

  // Starts a turn of `agent` with `message`. The agent must outlive the turn, and no
  // turn may be running.
  void start(hermes::Agent& agent, std::string message);

  // A turn was started and its result not yet collected.
  bool busy() const { return busy_.load(); }

  // The result of the finished turn (joining its thread), or nullopt while it runs or
  // when none was started.
  std::optional<hermes::ConversationResult> collect();

  // Waits for the running turn and returns its result.
  std::optional<hermes::ConversationResult> wait();

 private:
  std::function<void()> on_done_;
  std::thread thread_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> finished_{false};
  hermes::ConversationResult result_;
};

}  // namespace hermes_cli
