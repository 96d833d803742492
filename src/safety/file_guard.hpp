// Which files the file tools must not touch, whatever directory they are confined to:
// credential stores, SSH keys, system account files, hermes's own state. (The terminal
// can still reach them; these guards are defence in depth, with the command guards and
// the redactor behind them.)
//
// Reads are refused as well as writes for everything that holds secrets: a credential
// read into the conversation is sent to the model provider and kept in the session
// store, so refusing the write alone protects nothing. In ~/.ssh the names of private
// keys are arbitrary (deploy_key, github_work), so reads are refused there by default
// and allowed only for the files that hold nothing secret: *.pub, known_hosts,
// authorized_keys (public keys) and config (host aliases; no key bytes).
#pragma once

#include <optional>
#include <string>

namespace hermes::internal {

enum class WriteVerdict {
  kAllowed,
  kDenied,         // Never through the file tools.
  kNeedsApproval,  // Allowed once a human approves (~/.ssh/config can carry ProxyCommand).
};

struct FileGuard {
  std::string user_home;    // $HOME, resolved; empty disables the home-relative rules.
  std::string hermes_home;  // The agent's hermes home, resolved; empty disables its rules.

  // `path` must be absolute and resolved (no symlinks, no ..).
  WriteVerdict check_write(const std::string& path) const;
  // For a kDenied path: "Write denied: '<path>' is <what> (<why>)." Else nullopt.
  std::optional<std::string> write_denial(const std::string& path) const;
  // nullopt when reading is allowed, else "Read denied: '<path>' is <what> (<why>)."
  std::optional<std::string> check_read(const std::string& path) const;
};

// The guard for the current $HOME and `hermes_home`.
FileGuard make_file_guard(const std::string& hermes_home);

}  // namespace hermes::internal
