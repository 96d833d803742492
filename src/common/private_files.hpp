// hermes's own files hold conversations, memories, credentials and the security policy,
// so they are private to the user whatever the umask: files 0600, directories 0700.
#pragma once

#include <sys/types.h>

#include <string>

#include "hermes/status.hpp"

namespace hermes::internal {

inline constexpr mode_t kPrivateFileMode = 0600;
inline constexpr mode_t kPrivateDirMode = 0700;

// Creates `dir` and its missing parents, each with mode 0700 (set with chmod, so the umask
// has no say). Directories that exist are left as they are.
Status make_private_directories(const std::string& dir);

// Takes group and other access away from the hermes home `home` when it is a directory of
// this user's that grants any (an older hermes, or the user's own mkdir, may have left it
// 0755). Missing homes are left to be created on first write; failures are ignored.
void restrict_home_permissions(const std::string& home);

}  // namespace hermes::internal
