// Whole-file reads and crash-safe writes, shared by the file tools, memory and skills.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "hermes/status.hpp"

namespace hermes::internal {

// Whose file a write makes, which decides its permissions.
enum class FileOwner {
  // hermes's own state (memories, skills, the allow-list, caches): a new file is 0600 and
  // new directories 0700 whatever the umask; an existing file loses group and other
  // access.
  kHermes,
  // A file the file tools write for the model in the user's project: a new file is 0644,
  // new directories follow the umask, an existing file keeps its permission bits.
  kUser,
};

// Writes `content` to `path` through a temporary file in the same directory, fsync and
// rename: readers see the old file or the new one, never a torn one. Creates missing
// parent directories.
Status write_file_atomically(const std::string& path, std::string_view content,
                             FileOwner owner = FileOwner::kHermes);

// The contents of `path`. NotFound when it does not exist; ResourceExhausted when it is
// larger than `max_bytes`.
Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes = 64u << 20);

// Creates `dir` and its parents with the umask's permissions (for the user's
// directories; hermes's own use make_private_directories).
Status make_directories(const std::string& dir);

}  // namespace hermes::internal
