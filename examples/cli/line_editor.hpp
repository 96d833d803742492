// LineEditor: line editing for the interactive chat, through libedit (BSD licence): the
// arrow keys move in the line and recall earlier lines (the history InputHistory keeps in
// <home>/cli_history), Tab completes slash commands and skill names, and a multi-line
// paste arrives as one message. Used only when standard input and standard error are
// terminals; otherwise InputEvents reads plain lines.
//
// libedit runs in its callback mode: InputEvents polls standard input as before and hands
// each readable byte to feed(), so Ctrl+C (a signal, read through a signalfd) and
// wake-ups from other threads still reach the chat loop while a line is being edited.
// Between prompts (while a turn runs) the editor is put away and the terminal is back in
// its normal line mode.
//
// Thread-safety: one thread (the chat loop) uses it; only one LineEditor may exist.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hermes_cli {

class LineEditor {
 public:
  // The words Tab completes at the start of a line: "/help", "/<skill-name>", ...
  using Completions = std::function<std::vector<std::string>()>;

  // Whether line editing applies: standard input and standard error are terminals.
  static bool wanted();

  LineEditor(const std::vector<std::string>& history, Completions completions);
  ~LineEditor();  // Puts the editor away and gives the terminal back.
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // Shows `prompt` and starts reading a line. Without a UTF-8 character type a prompt
  // that is not ASCII is shown as "> ".
  void prompt(const std::string& text);
  // Stops reading lines; the terminal returns to its normal line mode.
  void put_away();
  bool active() const { return active_; }

  // Reads what standard input has (it was readable). A finished line comes back; lines
  // finished while more input is already waiting (a paste) are joined with '\n' and come
  // back together when the input pauses. nullopt: nothing finished yet. Sets
  // end_of_input() on Ctrl+D at an empty line or a closed input.
  std::optional<std::string> feed();
  bool end_of_input() const { return end_of_input_; }

  // Remembers a line sent, for the arrow keys.
  void remember(const std::string& line);

 private:
  const bool utf8_;  // The C locale's character type is UTF-8.
  bool active_ = false;
  bool end_of_input_ = false;
};

}  // namespace hermes_cli
