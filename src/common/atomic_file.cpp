#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/private_files.hpp"

namespace hermes::internal {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

Status make_directories(const std::string& dir) {
  if (dir.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec && !std::filesystem::is_directory(dir)) {
    return Status::io_error("cannot create directory " + dir + ": " + ec.message());
  }
  return {};
}

Status write_file_atomically(const std::string& path, std::string_view content, FileOwner owner) {
  const std::filesystem::path target(path);
  const std::string dir = target.parent_path().empty() ? "." : target.parent_path().string();
  const bool hermes = owner == FileOwner::kHermes;
  HERMES_RETURN_IF_ERROR(hermes ? make_private_directories(dir) : make_directories(dir));
  std::string tmp = dir + "/." + target.filename().string() + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());  // Mode 0600: nobody else can open it meanwhile.
  if (fd < 0)
    return Status::io_error("cannot create a temporary file in " + dir + ": " + errno_text());
  struct stat existing {};
  const bool had_file = ::stat(path.c_str(), &existing) == 0;
  mode_t mode = had_file ? (existing.st_mode & 07777) : 0644;
  if (hermes) mode = had_file ? (mode & 07700) : kPrivateFileMode;
  ::fchmod(fd, mode);
  const bool ok = write_all(fd, content) && ::fsync(fd) == 0;
  const std::string failure = ok ? "" : errno_text();
  ::close(fd);
  if (!ok) {
    ::unlink(tmp.c_str());
    return Status::io_error("cannot write " + path + ": " + failure);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    return Status::io_error("cannot replace " + path + ": " + why);
  }
  return {};
}

Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::not_found("no such file: " + path);
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return Status::resource_exhausted(path + " is " + std::to_string(size) + " bytes, more than " +
                                      std::to_string(max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::io_error("cannot read " + path + ": " + errno_text());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace hermes::internal
