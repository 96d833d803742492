// Terminal: everything the CLI writes, from any thread, without interleaving.
//
// Answers go to stdout (so `hermes -q ... > file` captures only them); notices, tool
// progress and prompts go to stderr. When stderr is a terminal, a transient status line
// (a tool running, the model thinking) is redrawn in place and erased before anything
// else is written.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <mutex>
#include <string>
#include <string_view>

namespace hermes_cli {

class Terminal {
 public:
  explicit Terminal(bool quiet);

  // A piece of the streamed answer (stdout).
  void stream(std::string_view text);
  // Ends the streamed answer with a newline if it did not end with one.
  void end_stream();
  // A whole answer that was not streamed.
  void answer(std::string_view text);

  // A line for the user on stderr (hidden in quiet mode unless `always`).
  void notice(std::string_view line, bool always = false);
  // A line on stdout, for command output (/sessions, /help, ...).
  void print(std::string_view line);

  // Replaces the transient status line; empty erases it. Ignored when not a terminal.
  void status(std::string_view text);

  // The input prompt.
  void prompt(std::string_view text);

  bool quiet() const { return quiet_; }

  // Whether any answer text streamed since the last call (then the answer need not be
  // printed again).
  bool take_streamed();

 private:
  void clear_status_locked();
  void break_line_locked();

  std::mutex mu_;
  const bool quiet_;
  const bool status_enabled_;
  bool status_shown_ = false;
  bool mid_line_ = false;  // stdout's last byte was not a newline.
  bool streamed_ = false;
};

}  // namespace hermes_cli
