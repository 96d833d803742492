#include "store/sqlite_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/private_files.hpp"
#include "safety/log.hpp"

namespace hermes::store {
namespace {

constexpr mode_t kPrivateFile = 0600;

std::string errno_text(int error) {
  return std::strerror(error);
}

// The directories hold private conversations: each one created is 0700.
Status create_parent_directory(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return {};
  std::error_code ec;
  if (std::filesystem::is_directory(parent, ec)) return {};
  return internal::make_private_directories(parent.string());
}

// chmod on the path, never on a descriptor: see prepare_database_file.
void tighten_permissions(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0) return;  // -wal/-shm often do not exist.
  if (S_ISLNK(info.st_mode) || !S_ISREG(info.st_mode)) return;
  if ((info.st_mode & 0777) == kPrivateFile) return;
  if (chmod(path.c_str(), kPrivateFile) != 0) {
    HERMES_LOG_WARN("cannot restrict permissions of {}: {}", path, errno_text(errno));
  }
}

}  // namespace

bool is_memory_path(const std::string& path) {
  return path.empty() || path == ":memory:" || path.rfind("file::memory:", 0) == 0;
}

Status prepare_database_file(const std::string& path) {
  HERMES_RETURN_IF_ERROR(create_parent_directory(path));
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kPrivateFile);
  if (fd >= 0) {
    // A brand-new empty file: no SQLite connection can hold locks on it yet.
    ::close(fd);
    return {};
  }
  if (errno != EEXIST) {
    return Status::io_error("cannot create " + path + ": " + errno_text(errno));
  }
  for (const char* suffix : {"", "-wal", "-shm"}) tighten_permissions(path + suffix);
  return {};
}

}  // namespace hermes::store
