// Redaction of terminal output: command output is usually source or logs, where
// MAX_TOKENS=100 must survive, so the key-based passes run only when the command dumps
// the environment or reads a file known to hold secrets.
#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "common/text_utils.hpp"
#include "hermes/redaction.hpp"
#include "safety/redaction_passes.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

constexpr std::array<std::string_view, 7> kEnvFileNames = {
    ".env",         ".env.local", ".env.development", ".env.production", ".env.test",
    ".env.staging", ".envrc"};
constexpr std::array<std::string_view, 8> kShellRcNames = {
    ".bashrc", ".bash_profile", ".bash_login", ".profile",
    ".zshrc",  ".zprofile",     ".zlogin",     ".zshenv"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Pipeline and sequence segments split on unquoted | ; & (backslashes are literal, as in
// Windows paths).
std::vector<std::string> command_segments(std::string_view command) {
  std::vector<std::string> out;
  std::string buf;
  char quote = 0;
  auto flush = [&] {
    const std::size_t b = buf.find_first_not_of(" \t\r\n");
    if (b != std::string::npos)
      out.push_back(buf.substr(b, buf.find_last_not_of(" \t\r\n") - b + 1));
    buf.clear();
  };
  for (char c : command) {
    if (quote) {
      buf += c;
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
      buf += c;
    } else if (c == '|' || c == ';' || c == '&') {
      flush();
    } else {
      buf += c;
    }
  }
  flush();
  return out;
}

std::vector<std::string> split_blanks(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool is_env_dump_command(std::string_view command) {
  for (const std::string& segment : command_segments(command)) {
    auto words = shell_words(segment);
    std::vector<std::string> tokens = words ? *words : split_blanks(segment);
    if (!tokens.empty() && (tokens[0] == "env" || tokens[0] == "printenv" || tokens[0] == "set" ||
                            tokens[0] == "export" || tokens[0] == "declare")) {
      return true;
    }
  }
  return false;
}

bool is_secret_file_argument(std::string arg, std::string_view hermes_home) {
  arg.erase(std::remove_if(arg.begin(), arg.end(), [](char c) { return c == '"' || c == '\''; }),
            arg.end());
  return is_secret_bearing_path(arg, hermes_home);
}

bool reads_secret_file(std::string_view command) {
  static constexpr std::array<std::string_view, 15> kReaders = {
      "cat",  "head", "tail", "type",   "bat",  "less", "more", "nl",
      "zcat", "tac",  "view", "batcat", "grep", "awk",  "sed"};
  for (const std::string& segment : command_segments(command)) {
    const std::vector<std::string> tokens = split_blanks(segment);
    if (tokens.empty()) continue;
    const std::string reader = program_basename(tokens[0]);
    if (!listed(kReaders, reader)) continue;
    std::vector<std::string> operands;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
      if (tokens[i][0] != '-') operands.push_back(tokens[i]);
    }
    // grep, awk and sed take a pattern or program first; only the rest are files.
    if ((reader == "grep" || reader == "awk" || reader == "sed") && !operands.empty())
      operands.erase(operands.begin());
    for (const std::string& operand : operands) {
      if (is_secret_file_argument(operand, "")) return true;
    }
  }
  return false;
}

// Python repr fields on pytest assertion lines ("E   ...") and final exception lines.
std::string redact_python_diagnostics(std::string_view text) {
  static const Regex pytest_line = Regex::builtin(R"(^([ \t]*E[ \t]{2,})(.*)$)");
  static const Regex exception_line = Regex::builtin(
      R"(^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Warning):[ \t]*)(.*)$)");
  if (text.find('\'') == std::string_view::npos) return std::string(text);
  std::string out;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    const std::size_t next = e == std::string_view::npos ? text.size() : e + 1;
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(b, e - b);
    std::string_view ending = text.substr(e, next - e);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
      ending = text.substr(e - 1, next - e + 1);
    }
    auto m = pytest_line.match_at(line, 0);
    if (!m) m = exception_line.match_at(line, 0);
    if (m && m->end() == line.size()) {
      out += std::string(m->group(line, 1)) + redact_python_repr_fields(m->group(line, 2));
    } else {
      out += line;
    }
    out += ending;
    b = next;
  }
  return out;
}

}  // namespace

bool is_secret_bearing_path(std::string_view raw, std::string_view hermes_home) {
  std::string path(raw);
  std::replace(path.begin(), path.end(), '\\', '/');
  bool in_hermes_home = false;
  for (std::string_view prefix : {"$HERMES_HOME/", "${HERMES_HOME}/"}) {
    if (path.starts_with(prefix)) {
      path.erase(0, prefix.size());
      in_hermes_home = true;
    }
  }
  for (std::string_view prefix : {"$HOME/", "${HOME}/"}) {
    if (path.starts_with(prefix)) path.erase(0, prefix.size());
  }
  if (path.find('$') != std::string::npos) return false;
  if (!hermes_home.empty() && path.rfind(std::string(hermes_home) + "/", 0) == 0)
    in_hermes_home = true;
  std::vector<std::string> parts;
  for (std::string& p : split_blanks([&] {
         std::string spaced = path;
         std::replace(spaced.begin(), spaced.end(), '/', ' ');
         return spaced;
       }())) {
    parts.push_back(lower_ascii(p));
  }
  if (parts.empty()) return false;
  const std::string& name = parts.back();
  if (listed(kEnvFileNames, name) || listed(kShellRcNames, name)) return true;
  // The hermes config holds tokens written by `mcp add --env`; its backups too.
  if (name != "config.yaml" && name.rfind("config.yaml.good.", 0) != 0 &&
      name.rfind("config.yaml.corrupt.", 0) != 0) {
    return false;
  }
  return in_hermes_home || std::find(parts.begin(), parts.end() - 1, ".hermes") != parts.end() - 1;
}

std::string redact_terminal_output(std::string_view output, std::string_view command) {
  if (!redaction_enabled()) return std::string(output);
  RedactionOptions options;
  if (is_env_dump_command(command) || reads_secret_file(command)) {
    options.secret_file = true;
    return redact_sensitive_text(output, options);
  }
  options.code_file = true;
  return redact_python_diagnostics(redact_sensitive_text(output, options));
}

}  // namespace hermes::internal
