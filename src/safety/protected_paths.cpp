#include "safety/protected_paths.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <unordered_map>
#include <vector>

#include "common/text_utils.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

using Words = std::vector<std::string>;

bool ends_with_path(std::string_view path, std::string_view tail) {
  if (path.size() < tail.size() || path.substr(path.size() - tail.size()) != tail) return false;
  return path.size() == tail.size() || path[path.size() - tail.size() - 1] == '/';
}

std::string canonical_path(std::string_view word) {
  std::string p = lower_ascii(trim_ascii(word));
  for (const auto& [from, to] :
       std::initializer_list<std::pair<std::string_view, std::string_view>>{
           {"${hermes_home}", "~/.hermes"},
           {"$hermes_home", "~/.hermes"},
           {"${home}", "~"},
           {"$home", "~"}}) {
    if (starts_with(p, from) && (p.size() == from.size() || p[from.size()] == '/')) {
      p = std::string(to) + p.substr(from.size());
      break;
    }
  }
  std::string out;
  for (char c : p) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out += c;
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The values `args` give option `name` ("-o x", "-ox", "--output x", "--output=x").
std::vector<std::string> option_values(const Words& args, std::size_t first,
                                       std::initializer_list<std::string_view> names) {
  std::vector<std::string> out;
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    for (std::string_view name : names) {
      const bool long_option = starts_with(name, "--");
      if (a == name && i + 1 < args.size()) {
        out.push_back(args[i + 1]);
      } else if (long_option && starts_with(a, std::string(name) + "=")) {
        out.push_back(a.substr(name.size() + 1));
      } else if (!long_option && !starts_with(a, "--") && starts_with(a, name) &&
                 a.size() > name.size()) {
        out.push_back(a.substr(name.size()));
      }
    }
  }
  return out;
}

// The operands of `args` (words that are not options; everything after `--`).
std::vector<std::string> operands(const Words& args, std::size_t first) {
  std::vector<std::string> out;
  bool options_done = false;
  for (std::size_t i = first; i < args.size(); ++i) {
    if (!options_done && args[i] == "--") {
      options_done = true;
    } else if (options_done || args[i].empty() || args[i][0] != '-') {
      out.push_back(args[i]);
    }
  }
  return out;
}

// Whether a short-option cluster or a long option of `args` turns on in-place editing.
bool edits_in_place(const Words& args, std::size_t first) {
  return std::any_of(
      args.begin() + static_cast<std::ptrdiff_t>(first), args.end(), [](const std::string& a) {
        return starts_with(a, "--in-place") ||
               (a.size() > 1 && a[0] == '-' && a[1] != '-' && a.find('i') != std::string::npos);
      });
}

// The paths a command (program `name`, arguments from `first`) writes to.
std::vector<std::string> program_write_targets(const std::string& name, const Words& w,
                                               std::size_t first) {
  static constexpr std::array<std::string_view, 15> kAllOperands = {
      "tee", "truncate", "touch", "chmod", "chown", "chgrp", "chattr", "setfacl",
      "rm",  "unlink",   "shred", "rmdir", "mkdir", "mv",    "sqlite3"};
  std::vector<std::string> out;
  auto add = [&out](std::vector<std::string> more) {
    out.insert(out.end(), more.begin(), more.end());
  };
  if (std::find(kAllOperands.begin(), kAllOperands.end(), name) != kAllOperands.end()) {
    add(operands(w, first));
  } else if (name == "cp" || name == "install" || name == "ln" || name == "rsync" ||
             name == "scp") {
    auto ops = operands(w, first);
    if (!ops.empty()) out.push_back(ops.back());
    add(option_values(w, first, {"-t", "--target-directory"}));
  } else if (name == "dd") {
    for (std::size_t i = first; i < w.size(); ++i) {
      if (starts_with(w[i], "of=")) out.push_back(w[i].substr(3));
    }
  } else if (name == "sed" || name == "perl" || name == "ruby") {
    if (edits_in_place(w, first)) add(operands(w, first));
  } else if (name == "curl") {
    add(option_values(w, first, {"-o", "--output", "--output-dir"}));
  } else if (name == "wget") {
    add(option_values(w, first,
                      {"-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file",
                       "-a", "--append-output"}));
  } else if (name == "sort") {
    add(option_values(w, first, {"-o", "--output"}));
  } else if (name == "tar") {
    add(option_values(w, first, {"-C", "--directory", "-f", "--file"}));
  } else if (name == "unzip") {
    add(option_values(w, first, {"-d"}));
  }
  return out;
}

std::string_view write_description(ProtectedPath kind) {
  switch (kind) {
    case ProtectedPath::kHermesState:
      return "write to hermes state or home (~/.hermes, state.db, allowlist)";
    case ProtectedPath::kSsh:
      return "write to SSH directory (~/.ssh)";
    case ProtectedPath::kShellStartup:
      return "write to shell start-up file";
    case ProtectedPath::kCredentials:
      return "write to credentials file";
    case ProtectedPath::kSecret:
      break;
  }
  return "";
}

std::optional<ProtectedPath> written_kind(const std::string& path) {
  auto kind = classify_protected_path(path);
  if (!kind || *kind == ProtectedPath::kSecret) return std::nullopt;
  return kind;
}

// ---- Exfiltration ----

constexpr int kSendsEnvironment = 1;
constexpr int kSendsSecret = 2;

bool is_network_program(std::string_view name) {
  static constexpr std::array<std::string_view, 23> kNetwork = {
      "curl", "wget",   "nc",     "ncat", "netcat", "socat",    "telnet", "ssh",
      "scp",  "sftp",   "rsync",  "ftp",  "tftp",   "openssl",  "http",   "https",
      "xh",   "httpie", "curlie", "mail", "mailx",  "sendmail", "mutt"};
  return std::find(kNetwork.begin(), kNetwork.end(), name) != kNetwork.end();
}

int path_secret(std::string_view path) {
  const auto kind = classify_protected_path(path);
  if (!kind) return 0;
  // A public key is meant to be handed out (ssh-copy-id does just that).
  const std::string lower = lower_ascii(path);
  if (*kind == ProtectedPath::kSsh && lower.size() > 4 &&
      lower.compare(lower.size() - 4, 4, ".pub") == 0) {
    return 0;
  }
  return kSendsSecret;
}

// The text after the last '@' or '<' of a data argument (`@file`, `name=@file`, `f=<file`).
std::string data_file(const std::string& value) {
  const std::size_t at = value.find_last_of("@<");
  return at == std::string::npos ? std::string() : value.substr(at + 1);
}

// What a program that talks to the network sends by its own arguments.
int network_arguments_send(const std::string& name, const Words& w, std::size_t first) {
  int sends = 0;
  auto check = [&sends](const std::string& path) { sends |= path_secret(path); };
  if (name == "curl") {
    for (const std::string& v : option_values(w, first,
                                              {"-d", "--data", "--data-binary", "--data-ascii",
                                               "--data-urlencode", "--json", "-F", "--form"})) {
      check(data_file(v));
    }
    for (const std::string& v : option_values(w, first, {"-T", "--upload-file"})) check(v);
  } else if (name == "wget") {
    for (const std::string& v : option_values(w, first, {"--post-file", "--body-file"})) check(v);
  } else if (name == "http" || name == "https" || name == "xh" || name == "httpie" ||
             name == "curlie") {
    for (std::size_t i = first; i < w.size(); ++i) check(data_file(w[i]));
  } else if (name == "scp" || name == "sftp" || name == "rsync" || name == "socat") {
    // Identity files and configs (-i, -F) authenticate; they are not sent.
    Words args(w.begin(), w.end());
    for (std::size_t i = first; i + 1 < args.size(); ++i) {
      if (args[i] == "-i" || args[i] == "-F" || args[i] == "-o" || args[i] == "-e")
        args[i + 1] = "";
    }
    for (const std::string& op : operands(args, first)) {
      check(op);
      const std::size_t colon = op.find(':');  // socat FILE:~/.netrc
      if (colon != std::string::npos) check(op.substr(colon + 1));
    }
  } else if (name == "mail" || name == "mailx" || name == "mutt") {
    for (const std::string& v : option_values(w, first, {"-a", "-A", "--attach"})) check(v);
  }
  return sends;
}

bool dumps_environment(const SimpleCommand& cmd, const std::optional<std::size_t>& program) {
  const Words& w = cmd.words;
  if (program) {
    const std::string name = program_basename(w[*program]);
    const std::size_t argc = w.size() - *program - 1;
    const std::string arg = argc > 0 ? w[*program + 1] : "";
    return name == "printenv" || (name == "export" && (argc == 0 || arg == "-p")) ||
           (name == "set" && argc == 0) ||
           ((name == "declare" || name == "typeset") && (arg == "-x" || arg == "-p")) ||
           (name == "compgen" && (arg == "-e" || arg == "-v"));
  }
  // `env` with nothing to run prints the environment (shell_program_index skips it).
  for (std::size_t i = command_first_word_index(cmd); i < w.size(); ++i) {
    if (program_basename(w[i]) != "env") continue;
    return std::all_of(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end(),
                       [](const std::string& a) {
                         return starts_with(a, "-") || a.find('=') != std::string::npos;
                       });
  }
  return false;
}

// What one command puts out on its own (not through its substitutions).
int command_emits(const SimpleCommand& cmd, bool network) {
  const auto program = command_program_index(cmd);
  int emits = dumps_environment(cmd, program) ? kSendsEnvironment : 0;
  for (const ShellRedirect& r : cmd.redirects) {
    if (r.op == "<" || r.op == "<>") emits |= path_secret(r.target);
  }
  if (!program) return emits;
  const std::string name = program_basename(cmd.words[*program]);
  if (network) return emits | network_arguments_send(name, cmd.words, *program + 1);
  for (const std::string& op : operands(cmd.words, *program + 1)) emits |= path_secret(op);
  for (std::size_t i = *program + 1; i < cmd.words.size(); ++i) {
    if (contains(lower_ascii(cmd.words[i]), "/environ")) emits |= kSendsSecret;
  }
  return emits;
}

bool sends_to_network(const SimpleCommand& cmd) {
  for (const ShellRedirect& r : cmd.redirects) {
    const std::string t = lower_ascii(r.target);
    if (r.writes() && (starts_with(t, "/dev/tcp/") || starts_with(t, "/dev/udp/"))) return true;
  }
  const auto program = command_program_index(cmd);
  return program && is_network_program(program_basename(cmd.words[*program]));
}

std::string exfiltration_description(int sends) {
  return (sends & kSendsEnvironment) != 0
             ? "send environment variables to the network (exfiltration)"
             : "send credentials or secrets file to the network (exfiltration)";
}

}  // namespace

std::optional<ProtectedPath> classify_protected_path(std::string_view word) {
  const std::string p = canonical_path(word);
  if (p.empty()) return std::nullopt;
  const std::size_t slash = p.find_last_of('/');
  const std::string_view base =
      slash == std::string::npos ? std::string_view(p) : std::string_view(p).substr(slash + 1);
  static constexpr std::array<std::string_view, 5> kHermesFiles = {
      "state.db", "state.db-wal", "state.db-shm", "state.db-journal", "command_allowlist.json"};
  if (p == "~/.hermes" || starts_with(p, "~/.hermes/") ||
      std::find(kHermesFiles.begin(), kHermesFiles.end(), base) != kHermesFiles.end()) {
    return ProtectedPath::kHermesState;
  }
  if (p == ".ssh" || starts_with(p, ".ssh/") || ends_with_path(p, ".ssh") ||
      contains(p, "/.ssh/")) {
    return ProtectedPath::kSsh;
  }
  static constexpr std::array<std::string_view, 9> kStartup = {
      ".bashrc",     ".zshrc",  ".profile", ".bash_profile", ".zprofile",
      ".bash_login", ".zshenv", ".zlogin",  ".bash_logout"};
  if (std::find(kStartup.begin(), kStartup.end(), base) != kStartup.end())
    return ProtectedPath::kShellStartup;
  static constexpr std::array<std::string_view, 6> kCredentialFiles = {
      ".netrc", "_netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials"};
  if (std::find(kCredentialFiles.begin(), kCredentialFiles.end(), base) != kCredentialFiles.end() ||
      ends_with_path(p, ".aws/credentials") || ends_with_path(p, ".docker/config.json") ||
      ends_with_path(p, ".kube/config") || ends_with_path(p, ".config/gh/hosts.yml")) {
    return ProtectedPath::kCredentials;
  }
  if (base == ".env" || starts_with(base, ".env.") || p == "/etc/shadow" ||
      (starts_with(p, "/proc/") && ends_with_path(p, "environ"))) {
    return ProtectedPath::kSecret;
  }
  return std::nullopt;
}

std::optional<std::string> protected_write_finding(const ParsedShell& parsed) {
  for (const SimpleCommand& cmd : parsed.commands) {
    std::vector<std::string> targets;
    for (const ShellRedirect& r : cmd.redirects) {
      if (r.writes()) targets.push_back(r.target);
    }
    if (const auto program = command_program_index(cmd)) {
      const auto more =
          program_write_targets(program_basename(cmd.words[*program]), cmd.words, *program + 1);
      targets.insert(targets.end(), more.begin(), more.end());
    }
    for (const std::string& target : targets) {
      if (auto kind = written_kind(target)) return std::string(write_description(*kind));
    }
  }
  return std::nullopt;
}

std::optional<std::string> exfiltration_finding(const ParsedShell& parsed) {
  const auto& cmds = parsed.commands;
  std::vector<bool> network(cmds.size());
  std::vector<int> emits(cmds.size());
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    network[i] = sends_to_network(cmds[i]);
    emits[i] = command_emits(cmds[i], network[i]);
  }
  // A substitution's output becomes part of the command it sits in; children come after
  // their parents, so one backward pass carries it all the way up.
  for (std::size_t i = cmds.size(); i-- > 0;) {
    if (cmds[i].parent != SimpleCommand::kNoParent && cmds[i].parent < i)
      emits[cmds[i].parent] |= emits[i];
  }
  // What earlier stages of a pipeline emit flows into the later ones; stages of one
  // pipeline are stored in order.
  std::unordered_map<std::size_t, int> upstream;
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    int& before = upstream[cmds[i].pipeline];
    if (network[i] && (emits[i] | before) != 0) return exfiltration_description(emits[i] | before);
    before |= emits[i];
  }
  return std::nullopt;
}

}  // namespace hermes::internal
