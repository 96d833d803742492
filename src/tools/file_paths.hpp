// Where the file tools may go: a root directory (relative paths resolve against it) plus
// optional extra directories. A path is resolved with its symlinks before it is checked,
// so `..`, absolute paths and symlinks pointing outside cannot leave the roots.
#pragma once

#include <string>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::internal {

class FileRoots {
 public:
  // `root` is absolute; `extra` may be relative to it.
  FileRoots(std::string root, const std::vector<std::string>& extra);

  // The resolved absolute form of `raw` (relative to the root; `~/` is the user's home).
  // PermissionDenied, in words the model can act on, when it lies outside every root.
  Result<std::string> resolve(const std::string& raw) const;

  // `path` relative to the root when it is inside it, else `path` unchanged.
  std::string display(const std::string& path) const;

  const std::string& root() const { return roots_.front(); }

 private:
  std::vector<std::string> roots_;  // Resolved; the first is the root.
};

}  // namespace hermes::internal
