// InputEvents: the one place the chat loop waits. It delivers typed lines, Ctrl+C
// presses, the end of input and wake-ups from other threads (a turn finished, a
// question needs asking), so the main thread stays responsive while a turn runs on a
// worker thread.
//
// SIGINT is blocked in every thread and read through a signalfd, so Ctrl+C never
// interrupts a system call half way and no work happens in a signal handler. Construct
// it before starting any thread, so the threads inherit the blocked mask.
//
// Thread-safety: wake() may be called from any thread; next() only from the owner.
#pragma once

#include <string>

namespace hermes_cli {

class LineEditor;

class InputEvents {
 public:
  enum class Kind { kLine, kInterrupt, kEndOfInput, kWake };
  struct Event {
    Kind kind;
    std::string line;  // kLine only, without the newline.
  };

  InputEvents();
  ~InputEvents();
  InputEvents(const InputEvents&) = delete;
  InputEvents& operator=(const InputEvents&) = delete;

  // Waits for the next event.
  Event next();

  // Makes next() return kWake.
  void wake();

  // Stops reading standard input (a single-query run has no input to read).
  void ignore_input() { input_open_ = false; }

  // Reads lines through `editor` while it is active (prompt() shown), plainly otherwise;
  // nullptr: always plainly.
  void use_editor(LineEditor* editor) { editor_ = editor; }

 private:
  int signal_fd_ = -1;
  int wake_read_ = -1;
  int wake_write_ = -1;
  bool input_open_ = true;
  std::string buffer_;
  LineEditor* editor_ = nullptr;
};

}  // namespace hermes_cli
