// What a command line runs that its text does not spell out: a program named by a
// variable or an ANSI-C string, eval of computed text, a script fed to an interpreter
// through a pipe or stdin, awk calling system(); and the commands hidden behind wrappers
// (timeout, nohup, xargs, watch, find -exec, eval, ...), unwrapped so the rules can see
// them as commands of their own.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "safety/shell_commands.hpp"

namespace hermes::internal {

// Why `parsed` runs something hidden, or nullopt.
std::optional<std::string> indirection_finding(const ParsedShell& parsed);

// The commands `parsed` runs behind wrappers, eval, watch and find -exec, each as a
// command line (at most a few dozen).
std::vector<std::string> unwrapped_commands(const ParsedShell& parsed);

// Whether `name` (a lower-cased base name) is a shell that reads commands (sh, bash, ...).
bool is_shell_program(std::string_view name);

}  // namespace hermes::internal
