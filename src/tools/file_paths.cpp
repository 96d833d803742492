#include "tools/file_paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

// Resolves every symlink of the part of `p` that exists; the rest is normalised lexically.
std::string resolve_path(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(p, ec);
  if (ec) out = p.lexically_normal();
  std::string s = out.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool inside(const std::string& path, const std::string& root) {
  if (root == "/") return true;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

}  // namespace

FileRoots::FileRoots(std::string root, const std::vector<std::string>& extra) {
  roots_.push_back(resolve_path(root));
  for (const std::string& e : extra) {
    if (!e.empty())
      roots_.push_back(
          resolve_path(fs::path(e).is_absolute() ? fs::path(e) : fs::path(roots_[0]) / e));
  }
}

Result<std::string> FileRoots::resolve(const std::string& raw) const {
  if (raw.empty()) return Status::invalid_argument("path is empty");
  if (raw.find('\0') != std::string::npos)
    return Status::invalid_argument("path contains a NUL byte");
  fs::path p(raw);
  if (raw == "~" || raw.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    if (home == nullptr) return Status::invalid_argument("path uses ~ but HOME is not set");
    p = fs::path(home) / raw.substr(raw.size() > 1 ? 2 : 1);
  }
  if (!p.is_absolute()) p = fs::path(roots_.front()) / p;
  const std::string resolved = resolve_path(p.lexically_normal());
  for (const std::string& r : roots_) {
    if (inside(resolved, r)) return resolved;
  }
  std::string list;
  for (const std::string& r : roots_) list += (list.empty() ? "" : ", ") + r;
  return Status::permission_denied("Path '" + raw + "' resolves to " + resolved +
                                   ", outside the directories the file tools may use (" + list +
                                   "). Use a path inside them.");
}

std::string FileRoots::display(const std::string& path) const {
  const std::string& root = roots_.front();
  if (path == root) return ".";
  if (inside(path, root) && root != "/") return path.substr(root.size() + 1);
  return path;
}

}  // namespace hermes::internal
