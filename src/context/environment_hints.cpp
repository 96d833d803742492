#include "context/environment_hints.hpp"

#if !defined(_WIN32)
#  include <sys/utsname.h>
#endif

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kWslHint =
    "This machine is WSL (Windows Subsystem for Linux). Windows drives are mounted under "
    "/mnt/: /mnt/c/ is C:, /mnt/d/ is D:, and so on, and a Windows user's files usually "
    "live under /mnt/c/Users/<name>/ (Desktop, Documents, Downloads). Translate Windows "
    "paths the user mentions to these; listing /mnt/c/Users/ shows the Windows user names.";

std::string host_name() {
#if defined(_WIN32)
  return "Windows";
#else
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  std::string system = u.sysname;
  if (system == "Darwin") system = "macOS";
  return system + " (" + u.release + ")";
#endif
}

// Read once: the kernel cannot change under a running process, and every new session's
// prompt asks.
bool is_wsl() {
  static const bool wsl = [] {
    std::ifstream in("/proc/sys/kernel/osrelease");
    std::string release;
    std::getline(in, release);
    return lower_ascii(release).find("microsoft") != std::string::npos;
  }();
  return wsl;
}

std::string current_dir() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::current_path(ec);
  return ec ? "" : p.string();
}

}  // namespace

std::string build_environment_hints(const std::string& working_dir) {
  std::string host = "Host: " + host_name();
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    host += "\nUser home directory: " + std::string(home);
  }
  if (std::string cwd = working_dir.empty() ? current_dir() : working_dir; !cwd.empty()) {
    host += "\nCurrent working directory: " + cwd;
  }
  std::string hints = host;
  if (is_wsl()) hints += "\n\n" + std::string(kWslHint);
  if (const char* own = std::getenv("HERMES_ENVIRONMENT_HINT"); own != nullptr) {
    if (std::string text = strip(own); !text.empty()) hints += "\n\n" + text;
  }
  return hints;
}

}  // namespace hermes::internal
