#include "common/private_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace hermes::internal {

Status make_private_directories(const std::string& dir) {
  if (dir.empty()) return {};
  std::filesystem::path partial;
  for (const std::filesystem::path& part : std::filesystem::path(dir)) {
    partial /= part;
    if (part.empty() || part == "/" || part == "." || part == "..") continue;
    const std::string p = partial.string();
    if (::mkdir(p.c_str(), kPrivateDirMode) == 0) {
      ::chmod(p.c_str(), kPrivateDirMode);  // mkdir's mode went through the umask.
      continue;
    }
    if (errno == EEXIST) {
      struct stat info {};
      if (::stat(p.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) continue;
      return Status::io_error("cannot create directory " + dir + ": " + p + " is not a directory");
    }
    return Status::io_error("cannot create directory " + p + ": " + std::strerror(errno));
  }
  return {};
}

void restrict_home_permissions(const std::string& home) {
  struct stat info {};
  if (home.empty() || ::stat(home.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return;
  if (info.st_uid != ::geteuid() || (info.st_mode & 077) == 0) return;
  ::chmod(home.c_str(), info.st_mode & 07700);
}

}  // namespace hermes::internal
