// Just enough POSIX shell lexing for the command guards: where commands start, which text
// is quoted data, and the words of a simple command. Nothing is expanded or executed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// Offsets where a command starts: the beginning, after unquoted ; & | && || ( and
// newlines, a brace group `{`, inside $(...) and backticks, and after if/then/do/...
// Offsets point at the first non-blank character of the command word.
std::vector<std::size_t> shell_command_starts(std::string_view command);

// `command` with `marker` inserted before every command start after the first, so rules
// anchored at "start of text or newline" see every command of a compound line.
std::string mark_shell_command_starts(std::string_view command, std::string_view marker = "\n");

// `command` with the content of quoted strings blanked (quote characters kept), so prose
// inside quotes cannot trip rules that have no command word to anchor on. Substitutions
// inside double quotes stay (the shell runs them), and a quoted operand right after an
// unquoted `>` stays (the shell writes to it).
std::string mask_quoted_prose(std::string_view command);

// `command` with newlines inside quotes replaced by spaces: a quoted newline is data, not
// a command separator.
std::string mask_quoted_newlines(std::string_view command);

// `command` with every word at a command position written without its quotes and
// escapes ("r"m -> rm), arguments untouched: quoting can spell a program name in pieces.
std::string unquote_command_words(std::string_view command);

// The lower-cased base names of the words at command positions.
std::vector<std::string> command_position_words(std::string_view command);

// The top-level simple commands of `command`, split on unquoted ; & | and newlines;
// comments are dropped.
std::vector<std::string_view> shell_segments(std::string_view command);

// The words of one simple command with quotes removed and escapes resolved, as a POSIX
// shell would split them (unquoted < and > runs are words of their own). nullopt when a
// quote is not closed.
std::optional<std::vector<std::string>> shell_words(std::string_view segment);

// The index of the word that names the program run by `words`, skipping variable
// assignments and wrappers such as sudo, env, nice, timeout; nullopt when there is none
// (or a wrapper only queries, like `command -v`).
std::optional<std::size_t> shell_program_index(const std::vector<std::string>& words);

// Whether `name` (a lower-cased base name) runs the program named after it: sudo, env,
// nohup, timeout, nice, xargs, watch, busybox, ...
bool is_command_wrapper(std::string_view name);

// The last path component of `word`, lower-cased.
std::string program_basename(std::string_view word);

}  // namespace hermes::internal
