// PtySession: runs a program under a pseudo-terminal, as a person at a terminal would,
// so the CLI is tested through its real interface (line discipline, Ctrl+C as a signal
// from the terminal, isatty() true).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hermes::testing {

class PtySession {
 public:
  // Starts `program` with `args` and exactly the environment `env` (plus PATH).
  PtySession(const std::string& program, const std::vector<std::string>& args,
             const std::map<std::string, std::string>& env);
  ~PtySession();  // Kills the program if it still runs.
  PtySession(const PtySession&) = delete;
  PtySession& operator=(const PtySession&) = delete;

  void send_line(const std::string& line);
  // Bytes as typed or pasted, e.g. "/he\t" or the up arrow "\x1b[A".
  void send_keys(const std::string& keys);
  void send_ctrl_c();
  void send_ctrl_d();

  // Reads until `text` appears after the previous match (escape codes removed), and
  // moves past it. False when the program exits or `timeout` passes first.
  bool expect(const std::string& text, std::chrono::seconds timeout = std::chrono::seconds(30));

  // Everything shown so far, escape codes removed.
  const std::string& screen() const { return screen_; }
  // What was shown after the previous match.
  std::string since_last_match() const { return screen_.substr(cursor_); }

  // Waits for the program to exit and returns its exit status (128+signal when killed),
  // or nullopt when it is still running after `timeout`.
  std::optional<int> wait_exit(std::chrono::seconds timeout = std::chrono::seconds(30));

 private:
  bool pump(std::chrono::milliseconds wait);  // False once the program's side closed.

  pid_t pid_ = -1;
  int master_ = -1;
  std::string raw_;
  std::string screen_;
  std::size_t cursor_ = 0;
  std::optional<int> exit_status_;
};

}  // namespace hermes::testing
