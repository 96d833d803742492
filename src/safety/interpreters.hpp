// The script interpreters the command guards recognise, and how each is told to run code
// given on its command line (`python -c`, `node -e`) instead of a script file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

struct Interpreter {
  std::string_view family;  // "python", "node", "perl", "ruby", "php", "powershell", ...
  std::vector<std::string_view> exec_flags;             // Run the next argument as code.
  std::vector<std::string_view> options_with_argument;  // Options that take a value.
  std::vector<std::string_view> no_script_flags;        // Print and exit, or run a module.
};

// The interpreter `name` (a lower-cased program base name such as "python3.12") runs, or
// nullptr when it is none of them.
const Interpreter* interpreter_for(std::string_view name);

// Whether `args[first...]` carry a code-running option of `interp` before the script operand.
bool interpreter_runs_inline_code(const Interpreter& interp, const std::vector<std::string>& args,
                                  std::size_t first);

// Whether `interp`, run with `args[first...]`, reads its program from standard input: no
// script operand (or `-`, or /dev/stdin), no inline code, and no option that makes it print
// something and exit.
bool interpreter_reads_program_from_stdin(const Interpreter& interp,
                                          const std::vector<std::string>& args, std::size_t first);

}  // namespace hermes::internal
