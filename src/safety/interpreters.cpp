#include "safety/interpreters.hpp"

#include <algorithm>
#include <array>

#include "common/text_utils.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

bool version_suffix(std::string_view rest) {
  return std::all_of(rest.begin(), rest.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// An option of `interp` that takes a value and has it attached (`-Wignore`, `-I./lib`).
bool has_attached_value(const Interpreter& interp, std::string_view option) {
  return std::any_of(interp.options_with_argument.begin(), interp.options_with_argument.end(),
                     [&](std::string_view o) {
                       return !starts_with(o, "--") && starts_with(option, o) &&
                              option.size() > o.size();
                     });
}

}  // namespace

const Interpreter* interpreter_for(std::string_view name) {
  static const std::array<Interpreter, 8> kInterpreters = {{
      {"python",
       {"-c"},
       {"-W", "-X", "--check-hash-based-pycs"},
       {"-m", "-V", "--version", "-h", "--help", "-?", "--help-all", "--help-env"}},
      {"node",
       {"-e", "--eval", "-p", "--print"},
       {"-C", "--conditions", "--import", "--loader", "--require", "--title", "-r"},
       {"-v", "--version", "-h", "--help", "--test", "--run", "--check", "-c"}},
      {"perl",
       {"-e", "-E", "--eval"},
       {"-0", "-F", "-I", "-M", "-m", "-x"},
       {"-v", "-V", "-h", "--help", "--version"}},
      {"ruby",
       {"-e"},
       {"-C", "-E", "-F", "-I", "-K", "-r"},
       {"-v", "--version", "-h", "--help", "-y"}},
      {"php", {"-r"}, {"-c", "-d", "-z"}, {"-v", "--version", "-h", "--help", "-i", "-m", "-f"}},
      {"powershell",
       {"-command", "-c", "-file", "-f"},
       {"-executionpolicy", "-version", "-windowstyle", "-workingdirectory"},
       {}},
      {"bun", {"-e", "--eval"}, {"--config", "--cwd", "--env-file", "--preload", "--require"}, {}},
      {"deno", {"eval", "-e", "--eval"}, {"-L", "--log-level"}, {}},
  }};
  std::string_view family;
  if (name == "py" || (starts_with(name, "python") && version_suffix(name.substr(6))))
    family = "python";
  else if (name == "node" || name == "nodejs")
    family = "node";
  else if (starts_with(name, "perl") && version_suffix(name.substr(4)))
    family = "perl";
  else if (starts_with(name, "ruby") && version_suffix(name.substr(4)))
    family = "ruby";
  else if (name == "php" || (starts_with(name, "php") && version_suffix(name.substr(3))))
    family = "php";
  else if (name == "powershell" || name == "pwsh" || name == "powershell.exe" || name == "pwsh.exe")
    family = "powershell";
  else if (name == "bun")
    family = "bun";
  else if (name == "deno")
    family = "deno";
  for (const auto& i : kInterpreters) {
    if (i.family == family) return &i;
  }
  return nullptr;
}

bool interpreter_runs_inline_code(const Interpreter& interp, const std::vector<std::string>& args,
                                  std::size_t first) {
  const bool powershell = interp.family == "powershell";
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token.empty() || token == "--" || (!powershell && token[0] != '-')) {
      return interp.family == "deno" && token == "eval";
    }
    std::string option = token.substr(0, token.find('='));
    if (powershell) option = program_basename(option);  // Lower-cases.
    if (list_contains(interp.exec_flags, option)) return true;
    if (!powershell && !starts_with(option, "--") && option.size() > 2 &&
        !has_attached_value(interp, option)) {
      for (char c : option.substr(1)) {
        if (list_contains(interp.exec_flags, std::string{'-', c})) return true;  // -pe, -uc
      }
    }
    if (list_contains(interp.options_with_argument, option) && token.find('=') == std::string::npos)
      ++i;
  }
  return false;
}

bool interpreter_reads_program_from_stdin(const Interpreter& interp,
                                          const std::vector<std::string>& args, std::size_t first) {
  // Runners with subcommands (bun run, deno run) and PowerShell read stdin only when told
  // to with `-`; hermes does not model their subcommands.
  const bool subcommands =
      interp.family == "bun" || interp.family == "deno" || interp.family == "powershell";
  if (interpreter_runs_inline_code(interp, args, first)) return false;
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "-" || token == "/dev/stdin" || token == "/dev/fd/0") return true;
    if (token == "--") {
      return i + 1 >= args.size() || args[i + 1] == "-" || args[i + 1] == "/dev/stdin";
    }
    if (token.size() < 2 || token[0] != '-') return false;  // The script operand.
    if (subcommands) continue;
    const std::string option = token.substr(0, token.find('='));
    if (list_contains(interp.no_script_flags, option)) return false;
    if (interp.family == "python" && starts_with(option, "-m")) return false;  // -mjson.tool
    if (list_contains(interp.options_with_argument, option) && token.find('=') == std::string::npos)
      ++i;
  }
  return !subcommands;
}

}  // namespace hermes::internal
