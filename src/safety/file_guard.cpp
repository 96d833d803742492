#include "safety/file_guard.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

std::string resolved(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  const auto p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

std::string basename_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Under `dir`, or `dir` itself.
bool under(const std::string& path, const std::string& dir) {
  return !dir.empty() && (path == dir || starts_with(path, dir + "/"));
}

}  // namespace

FileGuard make_file_guard(const std::string& hermes_home) {
  const char* home = std::getenv("HOME");
  return {home != nullptr ? resolved(home) : "", resolved(hermes_home)};
}

std::string write_denied_message(const std::string& path) {
  return "Write denied: '" + path + "' is a protected system/credential file.";
}

WriteVerdict FileGuard::check_write(const std::string& path) const {
  const std::string& h = user_home;
  if (!h.empty() && path == h + "/.ssh/config") return WriteVerdict::kNeedsApproval;
  static constexpr std::array<std::string_view, 3> kSystemFiles = {"/etc/sudoers", "/etc/passwd",
                                                                   "/etc/shadow"};
  if (std::find(kSystemFiles.begin(), kSystemFiles.end(), path) != kSystemFiles.end())
    return WriteVerdict::kDenied;
  if (under(path, "/etc/sudoers.d") || under(path, "/etc/systemd")) return WriteVerdict::kDenied;
  if (!h.empty()) {
    static constexpr std::array<std::string_view, 6> kHomeFiles = {
        "/.netrc",  "/.pgpass",          "/.npmrc",
        "/.pypirc", "/.git-credentials", "/.anthropic_oauth.json"};
    for (std::string_view f : kHomeFiles) {
      if (path == h + std::string(f)) return WriteVerdict::kDenied;
    }
    static constexpr std::array<std::string_view, 8> kHomeDirs = {
        "/.ssh",    "/.aws",   "/.gnupg",     "/.kube",
        "/.docker", "/.azure", "/.config/gh", "/.config/gcloud"};
    for (std::string_view d : kHomeDirs) {
      if (under(path, h + std::string(d))) return WriteVerdict::kDenied;
    }
  }
  const std::string& hh = hermes_home;
  if (!hh.empty()) {
    // Credentials, the session database, and the config that holds the security policy.
    for (const char* f : {"/.env", "/.anthropic_oauth.json", "/cache/bws_cache.enc.json",
                          "/state.db", "/config.yaml", "/auth.json"}) {
      if (path == hh + f || starts_with(path, hh + f + "-"))
        return WriteVerdict::kDenied;  // state.db-wal too.
    }
    for (const char* d : {"/mcp-tokens", "/pairing", "/sessions"}) {
      if (under(path, hh + d)) return WriteVerdict::kDenied;
    }
  }
  return WriteVerdict::kAllowed;
}

std::optional<std::string> FileGuard::check_read(const std::string& path) const {
  const std::string name = basename_of(path);
  static constexpr std::array<std::string_view, 7> kEnvFiles = {
      ".env",         ".env.local", ".env.development", ".env.production", ".env.test",
      ".env.staging", ".envrc"};
  if (std::find(kEnvFiles.begin(), kEnvFiles.end(), name) != kEnvFiles.end()) {
    return "Read blocked: '" + path + "' is an environment file that holds secrets.";
  }
  const std::string& hh = hermes_home;
  if (!hh.empty()) {
    if (under(path, hh + "/skills/.hub")) {
      return "Read blocked: '" + path +
             "' is in the skills hub cache; use skills_list and skill_view instead.";
    }
    for (const char* f :
         {"/auth.json", "/auth.lock", "/.anthropic_oauth.json", "/webhook_subscriptions.json",
          "/auth/google_oauth.json", "/cache/bws_cache.json"}) {
      if (path == hh + f) return "Read blocked: '" + path + "' is a hermes credential store.";
    }
    if (under(path, hh + "/mcp-tokens"))
      return "Read blocked: '" + path + "' is a hermes credential store.";
  }
  return std::nullopt;
}

}  // namespace hermes::internal
