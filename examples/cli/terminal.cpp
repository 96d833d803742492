#include "terminal.hpp"

#include <unistd.h>

#include <cstdio>

namespace hermes_cli {
namespace {

void write_all(FILE* f, std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), f);
  std::fflush(f);
}

}  // namespace

Terminal::Terminal(bool quiet)
    : quiet_(quiet), status_enabled_(!quiet && isatty(STDERR_FILENO) == 1) {}

void Terminal::clear_status_locked() {
  if (!status_shown_) return;
  write_all(stderr, "\r\x1b[2K");
  status_shown_ = false;
}

void Terminal::break_line_locked() {
  if (!mid_line_) return;
  write_all(stdout, "\n");
  mid_line_ = false;
}

void Terminal::stream(std::string_view text) {
  if (text.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  clear_status_locked();
  write_all(stdout, text);
  mid_line_ = text.back() != '\n';
  streamed_ = true;
}

bool Terminal::take_streamed() {
  std::lock_guard<std::mutex> lock(mu_);
  bool was = streamed_;
  streamed_ = false;
  return was;
}

void Terminal::end_stream() {
  std::lock_guard<std::mutex> lock(mu_);
  break_line_locked();
}

void Terminal::answer(std::string_view text) {
  std::lock_guard<std::mutex> lock(mu_);
  clear_status_locked();
  break_line_locked();
  write_all(stdout, text);
  if (text.empty() || text.back() != '\n') write_all(stdout, "\n");
}

void Terminal::notice(std::string_view line, bool always) {
  if (quiet_ && !always) return;
  std::lock_guard<std::mutex> lock(mu_);
  clear_status_locked();
  break_line_locked();
  std::string text(line);
  text += '\n';
  write_all(stderr, text);
}

void Terminal::print(std::string_view line) {
  std::lock_guard<std::mutex> lock(mu_);
  clear_status_locked();
  break_line_locked();
  std::string text(line);
  text += '\n';
  write_all(stdout, text);
}

void Terminal::status(std::string_view text) {
  if (!status_enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (text.empty()) return clear_status_locked();
  break_line_locked();
  std::string line = "\r\x1b[2K";
  line += text;
  write_all(stderr, line);
  status_shown_ = true;
}

void Terminal::prompt(std::string_view text) {
  if (quiet_) return;
  std::lock_guard<std::mutex> lock(mu_);
  clear_status_locked();
  break_line_locked();
  write_all(stderr, text);
}

}  // namespace hermes_cli
