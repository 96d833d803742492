#include "safety/command_indirection.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "common/text_utils.hpp"
#include "safety/interpreters.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxUnwrapped = 48;

bool is_awk(std::string_view name) {
  return name == "awk" || name == "gawk" || name == "mawk" || name == "nawk";
}

// A shell given no script and no -c reads its commands from stdin (`sh -s` says so).
bool shell_reads_stdin(const std::vector<std::string>& w, std::size_t first) {
  for (std::size_t i = first; i < w.size(); ++i) {
    const std::string& a = w[i];
    if (a == "-" || a == "-s" || a == "/dev/stdin") return true;
    if (a == "--") return i + 1 >= w.size();
    if (a.size() < 2 || (a[0] != '-' && a[0] != '+')) return false;  // A script file.
    if (a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file") {
      ++i;
      continue;
    }
    if (a[1] != '-' && a.find('c') != std::string::npos) return false;  // -c, -lc
    if (a == "--version" || a == "--help") return false;
  }
  return true;
}

// awk given its program by -f - or -f /dev/stdin.
bool awk_reads_program_from_stdin(const std::vector<std::string>& w, std::size_t first) {
  for (std::size_t i = first; i + 1 < w.size(); ++i) {
    if ((w[i] == "-f" || w[i] == "--file") && (w[i + 1] == "-" || w[i + 1] == "/dev/stdin"))
      return true;
  }
  return false;
}

// awk code that hands text to a shell: system(), `cmd | getline`, `print | "cmd"`, |&.
bool awk_runs_commands(const std::vector<std::string>& w, std::size_t first) {
  for (std::size_t i = first; i < w.size(); ++i) {
    std::string code = w[i];
    code.erase(std::remove_if(code.begin(), code.end(),
                              [](char c) { return c == ' ' || c == '\t' || c == '\n'; }),
               code.end());
    if (contains(code, "system(") || contains(code, "|getline") || contains(code, "|\"") ||
        contains(code, "|&")) {
      return true;
    }
  }
  return false;
}

bool reads_stdin_by_redirect(const SimpleCommand& cmd) {
  return std::any_of(cmd.redirects.begin(), cmd.redirects.end(), [](const ShellRedirect& r) {
    return r.op == "<" || r.op == "<<<" || r.op == "<&" || r.op == "<>";
  });
}

bool downloads(const SimpleCommand& cmd) {
  const auto p = command_program_index(cmd);
  if (!p) return false;
  const std::string name = program_basename(cmd.words[*p]);
  return name == "curl" || name == "wget" || name == "fetch" || name == "aria2c";
}

// Whether the program of `cmd` (a shell or interpreter) takes its program from stdin, and
// why that is a finding: piped or redirected, or (for interpreters) even bare, because a
// background process's stdin is whatever the model writes later.
// `downloading` holds the pipelines with a download stage, and the first such stage.
std::optional<std::string> stdin_program_finding(
    const std::unordered_map<std::size_t, std::size_t>& downloading, const SimpleCommand& cmd,
    std::size_t p) {
  const std::string name = program_basename(cmd.words[p]);
  const Interpreter* interp = interpreter_for(name);
  const bool shell = is_shell_program(name);
  bool reads = false;
  if (interp != nullptr) {
    reads = interpreter_reads_program_from_stdin(*interp, cmd.words, p + 1);
  } else if (shell) {
    reads = shell_reads_stdin(cmd.words, p + 1);
  } else if (is_awk(name)) {
    reads = awk_reads_program_from_stdin(cmd.words, p + 1);
  }
  if (!reads) return std::nullopt;
  if (cmd.stage > 0) {
    const auto it = downloading.find(cmd.pipeline);
    const bool remote = it != downloading.end() && it->second < cmd.stage;
    return std::string(remote ? "pipe remote content to interpreter"
                              : "interpreter reads its program from a pipe");
  }
  if (reads_stdin_by_redirect(cmd)) return std::string("interpreter reads its program from stdin");
  // A bare shell is allowed: what reaches its stdin through process_manage is checked
  // like any command line. An interpreter's stdin is code hermes cannot read.
  if (!shell) return std::string("interpreter reads its program from stdin");
  return std::nullopt;
}

std::optional<std::string> command_finding(
    const std::unordered_map<std::size_t, std::size_t>& downloading, const SimpleCommand& cmd) {
  const auto p = command_program_index(cmd);
  if (!p) return std::nullopt;
  const std::string& raw = cmd.raw[*p];
  if (contains(raw, "$'"))
    return std::string("ANSI-C quoted command word (hides the program name)");
  if (raw_word_expands(raw))
    return std::string("command word is a variable or expansion (hides the program)");
  const std::string name = program_basename(cmd.words[*p]);
  if (name == "eval") {
    for (std::size_t i = *p + 1; i < cmd.raw.size(); ++i) {
      if (raw_word_expands(cmd.raw[i]))
        return std::string("eval of computed text (variable or command substitution)");
    }
  }
  if (name == "source" || name == "." || is_shell_program(name) || interpreter_for(name)) {
    for (std::size_t i = *p + 1; i < cmd.raw.size(); ++i) {
      if (starts_with(cmd.raw[i], "<(") || starts_with(cmd.raw[i], "\"<("))
        return std::string("runs the output of a process substitution");
    }
  }
  if (is_awk(name) && awk_runs_commands(cmd.words, *p + 1))
    return std::string("awk runs shell commands (system, pipes)");
  return stdin_program_finding(downloading, cmd, *p);
}

// The words of every -exec/-execdir/-ok/-okdir of a find command, up to `;` or `+`.
std::vector<std::string> find_exec_commands(const std::vector<std::string>& w, std::size_t p) {
  std::vector<std::string> out;
  for (std::size_t i = p + 1; i < w.size(); ++i) {
    if (w[i] != "-exec" && w[i] != "-execdir" && w[i] != "-ok" && w[i] != "-okdir") continue;
    std::vector<std::string> exec;
    for (++i; i < w.size() && w[i] != ";" && w[i] != "+"; ++i) exec.push_back(w[i]);
    if (!exec.empty()) out.push_back(join_shell_words(exec, 0));
  }
  return out;
}

}  // namespace

bool is_shell_program(std::string_view name) {
  static constexpr std::array<std::string_view, 8> kShells = {"sh",   "bash", "zsh",  "ksh",
                                                              "dash", "ash",  "fish", "mksh"};
  return std::find(kShells.begin(), kShells.end(), name) != kShells.end();
}

std::optional<std::string> indirection_finding(const ParsedShell& parsed) {
  if (parsed.too_deep) return std::string("command nesting too deep to inspect");
  std::unordered_map<std::size_t, std::size_t> downloading;
  for (const SimpleCommand& cmd : parsed.commands) {
    if (downloads(cmd)) downloading.emplace(cmd.pipeline, cmd.stage);  // The first one.
  }
  for (const SimpleCommand& cmd : parsed.commands) {
    if (auto finding = command_finding(downloading, cmd)) return finding;
  }
  return std::nullopt;
}

std::vector<std::string> unwrapped_commands(const ParsedShell& parsed) {
  std::vector<std::string> out;
  auto add = [&out](std::string text) {
    if (!text.empty() && out.size() < kMaxUnwrapped &&
        std::find(out.begin(), out.end(), text) == out.end()) {
      out.push_back(std::move(text));
    }
  };
  for (const SimpleCommand& cmd : parsed.commands) {
    const auto p = command_program_index(cmd);
    if (!p) continue;
    const auto begin = cmd.words.begin();
    const bool watched =
        std::any_of(begin, begin + static_cast<std::ptrdiff_t>(*p),
                    [](const std::string& w) { return program_basename(w) == "watch"; });
    // watch, like eval, hands its words to sh -c as one string.
    if (*p > 0) add(watched ? join_words_plain(cmd.words, *p) : join_shell_words(cmd.words, *p));
    const std::string name = program_basename(cmd.words[*p]);
    if (name == "eval") add(join_words_plain(cmd.words, *p + 1));
    if (name == "find") {
      for (std::string& exec : find_exec_commands(cmd.words, *p)) add(std::move(exec));
    }
  }
  return out;
}

}  // namespace hermes::internal
