// The files a shell command must not change or send away without a human's approval:
// hermes' own state (its home, state.db, the approval allowlist), SSH keys, shell
// start-up files and credentials files; and the two checks built on them, writes by any
// command and exfiltration to the network.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "safety/shell_commands.hpp"

namespace hermes::internal {

enum class ProtectedPath {
  kHermesState,   // ~/.hermes (and $HERMES_HOME), state.db, command_allowlist.json
  kSsh,           // any .ssh directory
  kShellStartup,  // .bashrc, .zshrc, .profile, ...
  kCredentials,   // .netrc, .pgpass, .npmrc, .pypirc, .aws/credentials, ...
  kSecret,        // read-only concern: .env files, /proc/*/environ, /etc/shadow
};

// What `path` (one shell word, quotes removed, homes folded to ~ and ~/.hermes) is, if it
// is protected. Case-insensitive, so macOS spellings count too.
std::optional<ProtectedPath> classify_protected_path(std::string_view path);

// "write to ..." when a command of `parsed` writes to a protected path (redirection, tee,
// cp/mv/install destination, sed -i, dd of=, truncate, chmod, rm, ...).
std::optional<std::string> protected_write_finding(const ParsedShell& parsed);

// "send ... to the network (exfiltration)" when the environment or a protected file flows
// into a program that talks to the network (curl, wget, nc, ssh, mail, /dev/tcp, ...).
std::optional<std::string> exfiltration_finding(const ParsedShell& parsed);

}  // namespace hermes::internal
