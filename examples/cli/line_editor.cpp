#include "line_editor.hpp"

#if HERMES_CLI_LINE_EDITING
#  include <editline/readline.h>
#  include <langinfo.h>
#  include <poll.h>
#  include <unistd.h>

#  include <clocale>
#  include <cstdio>
#  include <cstdlib>
#  include <cstring>

namespace hermes_cli {
namespace {

// libedit calls back through plain functions; these are the one editor's state.
LineEditor::Completions* completions = nullptr;
std::vector<std::string>* finished = nullptr;  // Lines handed over by on_line.
bool* saw_end = nullptr;

void on_line(char* line) {
  if (line == nullptr) {
    *saw_end = true;
    return;
  }
  finished->emplace_back(line);
  std::free(line);
}

// The generator rl_completion_matches calls: state 0 starts a new completion.
char* next_match(const char* text, int state) {
  static std::vector<std::string> words;
  static std::size_t index = 0;
  if (state == 0) {
    words = (*completions)();
    index = 0;
  }
  const std::size_t length = std::strlen(text);
  while (index < words.size()) {
    const std::string& word = words[index++];
    if (word.compare(0, length, text) == 0) return strdup(word.c_str());
  }
  return nullptr;
}

char** complete(const char* text, int start, int /*end*/) {
  // Commands and skills are the first word of a line; nothing else is completed (not
  // even file names).
  rl_attempted_completion_over = 1;
  if (start != 0 || text[0] != '/') return nullptr;
  return rl_completion_matches(text, next_match);
}

// libedit decodes the prompt and the input by the character type of the C locale, which is
// plain ASCII until a program sets it (and crashes on a UTF-8 prompt then). The user's
// own if it is UTF-8, else C.UTF-8; false when neither is available.
bool use_utf8_ctype() {
  const auto utf8 = [] { return std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0; };
  if (std::setlocale(LC_CTYPE, "") != nullptr && utf8()) return true;
  return std::setlocale(LC_CTYPE, "C.UTF-8") != nullptr && utf8();
}

// Whether `text` is all ASCII.
bool ascii(const std::string& text) {
  for (unsigned char c : text) {
    if (c >= 0x80) return false;
  }
  return true;
}

bool input_waiting() {
  pollfd fd{STDIN_FILENO, POLLIN, 0};
  return poll(&fd, 1, 0) > 0 && (fd.revents & POLLIN) != 0;
}

}  // namespace

bool LineEditor::wanted() {
  return isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1;
}

LineEditor::LineEditor(const std::vector<std::string>& history, Completions source)
    : utf8_(use_utf8_ctype()) {
  completions = new Completions(std::move(source));
  finished = new std::vector<std::string>();
  saw_end = &end_of_input_;
  rl_instream = stdin;
  rl_outstream = stderr;  // Standard output carries only answers.
  rl_readline_name = "hermes";
  rl_attempted_completion_function = complete;
  rl_completion_append_character = ' ';
  using_history();
  stifle_history(1000);
  for (const std::string& line : history) add_history(line.c_str());
}

LineEditor::~LineEditor() {
  put_away();
  delete completions;
  delete finished;
  completions = nullptr;
  finished = nullptr;
  saw_end = nullptr;
}

void LineEditor::prompt(const std::string& text) {
  if (active_) rl_callback_handler_remove();
  finished->clear();
  rl_callback_handler_install(utf8_ || ascii(text) ? text.c_str() : "> ", on_line);
  active_ = true;
}

void LineEditor::put_away() {
  if (!active_) return;
  rl_callback_handler_remove();
  active_ = false;
}

std::optional<std::string> LineEditor::feed() {
  // One byte at a time, as libedit reads them, while any is waiting: a paste is read
  // whole before its lines are handed over.
  do {
    rl_callback_read_char();
  } while (!end_of_input_ && input_waiting());
  if (finished->empty()) return std::nullopt;
  std::string message;
  for (const std::string& line : *finished) {
    if (!message.empty()) message += '\n';
    message += line;
  }
  finished->clear();
  return message;
}

void LineEditor::remember(const std::string& line) {
  add_history(line.c_str());
}

}  // namespace hermes_cli

#else  // Built without libedit: wanted() is false, so no LineEditor is ever made.

namespace hermes_cli {

bool LineEditor::wanted() {
  return false;
}
LineEditor::LineEditor(const std::vector<std::string>&, Completions) : utf8_(false) {}
LineEditor::~LineEditor() = default;
void LineEditor::prompt(const std::string&) {}
void LineEditor::put_away() {}
std::optional<std::string> LineEditor::feed() {
  return std::nullopt;
}
void LineEditor::remember(const std::string&) {}

}  // namespace hermes_cli

#endif
