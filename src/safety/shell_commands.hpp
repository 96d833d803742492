// The simple commands of a shell command line, as the guards need them: every word as
// written and without its quotes, the redirections, where each command sits in its
// pipeline, and the commands inside $(...), backticks and <(...). Nothing is expanded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

struct ShellRedirect {
  std::string op;       // "<", ">", ">>", ">|", "<>", "<<", "<<-", "<<<", "<&", ">&", "&>", "&>>"
  std::string target;   // The target word without quotes (a heredoc's delimiter).
  bool writes() const;  // Opens its target for writing.
};

struct SimpleCommand {
  static constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);
  std::vector<std::string> raw;    // The words as written, quotes and all.
  std::vector<std::string> words;  // The same words with quotes removed and escapes resolved.
  std::vector<ShellRedirect> redirects;
  std::size_t pipeline = 0;  // Commands with the same number are stages of one pipeline.
  std::size_t stage = 0;     // 0 for the first stage; a later stage reads the one before.
  int depth = 0;             // 0 at top level, 1 inside one substitution, ...
  // The index (in ParsedShell::commands) of the command whose word holds the substitution
  // this command runs in; kNoParent at top level. A parent comes before its children.
  std::size_t parent = kNoParent;
};

struct ParsedShell {
  std::vector<SimpleCommand> commands;
  // Substitutions nested deeper than the parser follows: what they run is unknown.
  bool too_deep = false;
};

// Parses `text` (best effort: an unclosed quote or substitution runs to the end).
// Heredoc bodies are data and yield no commands.
ParsedShell parse_shell_commands(std::string_view text);

// The index in `cmd.words` of the program the command runs: after reserved words (if,
// then, do, !, ...), variable assignments and wrappers (sudo, env, timeout, xargs, ...).
// nullopt when it runs none (`x=1`, `for f in *`, `command -v x`).
std::optional<std::size_t> command_program_index(const SimpleCommand& cmd);

// The index of the first word that is not a reserved word or an assignment.
std::size_t command_first_word_index(const SimpleCommand& cmd);

// Whether a word as written expands to text the command line does not show: a
// parameter ($x, ${x}), a command substitution ($(...), `...`) or an arithmetic one.
// Text inside single quotes is literal.
bool raw_word_expands(std::string_view raw);

// The word after quote removal: quotes dropped, backslash escapes and $'...' (ANSI-C)
// strings resolved, expansions kept as written.
std::string unquote_shell_word(std::string_view raw);

// The text of a $'...' string's body (between the quotes) with its escapes decoded. Only
// ASCII comes out: control characters become spaces and bytes outside ASCII '?', so the
// result is safe to match and to show (it is never run).
std::string decode_ansi_c_body(std::string_view body);

// `words` from `first` joined by spaces, each quoted for the shell when it needs it.
std::string join_shell_words(const std::vector<std::string>& words, std::size_t first);

// `words` from `first` joined by spaces as they are: what eval and watch hand to a shell.
std::string join_words_plain(const std::vector<std::string>& words, std::size_t first);

}  // namespace hermes::internal
