// Which files the file tools must not touch, whatever directory they are confined to:
// credential stores, SSH keys, system account files, hermes's own state. (The terminal
// can still reach them; these guards are defence in depth, with the command guards and
// the redactor behind them.)
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
  std::string user_home;    // $HOME; empty disables the home-relative rules.
  std::string hermes_home;  // The agent's hermes home.

  // `path` must be absolute and resolved (no symlinks, no ..).
  WriteVerdict check_write(const std::string& path) const;
  // nullopt when reading is allowed, else why not (for the model).
  std::optional<std::string> check_read(const std::string& path) const;
};

// The guard for the current $HOME and `hermes_home`.
FileGuard make_file_guard(const std::string& hermes_home);

// "Write denied: '<path>' is a protected system/credential file."
std::string write_denied_message(const std::string& path);

}  // namespace hermes::internal
