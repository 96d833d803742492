// InputHistory: the lines typed into the chat, kept in <home>/cli_history across runs so
// that /history shows them again. Secrets in a line (API keys, tokens) are masked before
// it is written; the file is 0600.
//
// While typing, the terminal's own line editing applies (backspace, Ctrl+U, Ctrl+W);
// recalling a line with the arrow keys would need a line-editing library, which the CLI
// does not link.
//
// Thread-safety: one thread (the chat loop) uses it.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

namespace hermes_cli {

class InputHistory {
 public:
  static constexpr std::size_t kMaxEntries = 1000;

  // Reads the last kMaxEntries lines of `path` (a missing file is an empty history).
  explicit InputHistory(std::string path);

  // Records a typed line, in memory and at the end of the file. Blank lines and a repeat
  // of the previous line are not recorded. A file that cannot be written is left alone:
  // the history is a convenience and must never stop the chat.
  void add(const std::string& line);

  // Oldest first.
  const std::deque<std::string>& entries() const { return entries_; }

 private:
  std::string path_;
  std::deque<std::string> entries_;
};

}  // namespace hermes_cli
