// PromptBroker: questions from a running turn (approve a dangerous command, answer a
// clarify question) answered by the next line the user types.
//
// The turn asks on its own thread and blocks; the chat loop, which owns the input,
// sees that a question is pending and hands it the next line instead of treating the
// line as a message or a command.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace hermes_cli {

class PromptBroker {
 public:
  // Called (with no lock held) when a question becomes pending, to wake the input loop.
  explicit PromptBroker(std::function<void()> on_question) : on_question_(std::move(on_question)) {}

  // Marks a question pending, calls `show` (to print it: a line typed from then on is
  // the answer), and blocks until an answer arrives, `timeout` passes or the question is
  // cancelled. Returns nullopt when nobody answered.
  std::optional<std::string> ask(const std::function<void()>& show,
                                 std::chrono::milliseconds timeout);

  // Whether a question waits for a line.
  bool pending() const;

  // Delivers `line` to the pending question; false when none is pending.
  bool answer(const std::string& line);

  // Ends the pending question without an answer (Ctrl+C, end of input).
  void cancel();

 private:
  std::function<void()> on_question_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool pending_ = false;
  std::optional<std::string> answer_;
  uint64_t generation_ = 0;  // Bumped per question, so a late answer never leaks forward.
};

}  // namespace hermes_cli
