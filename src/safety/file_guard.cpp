#include "safety/file_guard.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

enum GuardAccess : unsigned { kGuardRead = 1, kGuardWrite = 2, kGuardBoth = 3 };

enum class GuardReach {
  kFile,        // Exactly this file.
  kFileFamily,  // This file and "<file>-suffix" companions (state.db-wal, state.db-shm).
  kTree,        // This directory and everything under it.
};

struct GuardRule {
  std::string_view where;  // Relative to the rule set's base (absolute for system rules).
  GuardReach reach;
  unsigned access;
  std::string_view why;
};

// Relative to $HOME. Upstream refuses only writes here; a read leaks just as surely.
constexpr std::array<GuardRule, 24> kUserHomeRules = {{
    {".ssh", GuardReach::kTree, kGuardBoth, "SSH keys"},  // Reads: see ssh_read_allowed.
    {".aws", GuardReach::kTree, kGuardBoth, "AWS credentials"},
    {".kube", GuardReach::kTree, kGuardBoth, "Kubernetes cluster credentials"},
    {".docker", GuardReach::kTree, kGuardBoth, "container registry credentials and TLS keys"},
    {".gnupg", GuardReach::kTree, kGuardBoth, "GnuPG private keys"},
    {".azure", GuardReach::kTree, kGuardBoth, "Azure credentials"},
    {".oci", GuardReach::kTree, kGuardBoth, "Oracle Cloud API keys"},
    {".config/gcloud", GuardReach::kTree, kGuardBoth, "Google Cloud credentials"},
    {".config/gh", GuardReach::kTree, kGuardBoth, "GitHub CLI tokens"},
    {".config/doctl", GuardReach::kTree, kGuardBoth, "DigitalOcean tokens"},
    {".password-store", GuardReach::kTree, kGuardBoth, "the pass password store"},
    {".local/share/keyrings", GuardReach::kTree, kGuardBoth, "the desktop keyring"},
    {".netrc", GuardReach::kFile, kGuardBoth, "passwords for remote hosts"},
    {".git-credentials", GuardReach::kFile, kGuardBoth, "git passwords and tokens"},
    // git's credential store also lives here when XDG_CONFIG_HOME is in use.
    {".config/git/credentials", GuardReach::kFile, kGuardBoth, "git passwords and tokens"},
    {".pgpass", GuardReach::kFile, kGuardBoth, "PostgreSQL passwords"},
    {".npmrc", GuardReach::kFile, kGuardBoth, "npm registry tokens"},
    {".pypirc", GuardReach::kFile, kGuardBoth, "PyPI upload tokens"},
    {".vault-token", GuardReach::kFile, kGuardBoth, "a HashiCorp Vault token"},
    {".cargo/credentials", GuardReach::kFile, kGuardBoth, "crates.io tokens"},
    {".cargo/credentials.toml", GuardReach::kFile, kGuardBoth, "crates.io tokens"},
    {".terraform.d/credentials.tfrc.json", GuardReach::kFile, kGuardBoth, "Terraform Cloud tokens"},
    {".config/rclone/rclone.conf", GuardReach::kFile, kGuardBoth, "cloud storage credentials"},
    {".anthropic_oauth.json", GuardReach::kFile, kGuardBoth, "Anthropic OAuth tokens"},
}};

// Relative to the hermes home: its credentials, and the files that decide what hermes
// may do (a model that could rewrite them could grant itself anything).
constexpr std::array<GuardRule, 16> kHermesHomeRules = {{
    {".env", GuardReach::kFile, kGuardBoth, "hermes's API keys"},
    {"config.yaml", GuardReach::kFile, kGuardBoth,
     "hermes's configuration, which holds its security policy"},
    // Reading it tells an injected prompt which commands run without asking.
    {"command_allowlist.json", GuardReach::kFile, kGuardBoth,
     "the commands approved to run without asking"},
    {"mcp.json", GuardReach::kFile, kGuardBoth,
     "the MCP servers hermes starts, with their commands and tokens"},
    {"auth.json", GuardReach::kFile, kGuardBoth, "hermes's provider credentials"},
    {"auth.lock", GuardReach::kFile, kGuardBoth, "hermes's provider credentials"},
    {"auth", GuardReach::kTree, kGuardBoth, "hermes's provider credentials"},
    {".anthropic_oauth.json", GuardReach::kFile, kGuardBoth, "Anthropic OAuth tokens"},
    {"webhook_subscriptions.json", GuardReach::kFile, kGuardBoth, "webhook signing secrets"},
    {"cache/bws_cache.json", GuardReach::kFile, kGuardBoth, "cached secret-manager values"},
    {"cache/bws_cache.enc.json", GuardReach::kFile, kGuardBoth, "cached secret-manager values"},
    {"mcp-tokens", GuardReach::kTree, kGuardBoth, "OAuth tokens of MCP servers"},
    {"pairing", GuardReach::kTree, kGuardBoth, "the pairing codes of messaging platforms"},
    // Rewriting the store would falsify conversation history; reads are refused as
    // binary anyway, and session_search is the way in.
    {"state.db", GuardReach::kFileFamily, kGuardWrite, "the session database"},
    {"sessions", GuardReach::kTree, kGuardWrite, "stored session transcripts"},
    // Skills fetched from a hub are untrusted text; skill_view shows them with checks.
    {"skills/.hub", GuardReach::kTree, kGuardRead,
     "the skills hub cache; use skills_list and skill_view instead"},
}};

constexpr std::array<GuardRule, 7> kSystemRules = {{
    {"/etc/sudoers", GuardReach::kFile, kGuardBoth, "who may run commands as root"},
    {"/etc/sudoers.d", GuardReach::kTree, kGuardBoth, "who may run commands as root"},
    {"/etc/passwd", GuardReach::kFile, kGuardWrite, "the system's accounts"},
    {"/etc/shadow", GuardReach::kFile, kGuardBoth, "the system's password hashes"},
    {"/etc/gshadow", GuardReach::kFile, kGuardBoth, "the system's group password hashes"},
    {"/etc/systemd", GuardReach::kTree, kGuardWrite, "the services the system starts"},
    {"/root/.ssh", GuardReach::kTree, kGuardBoth, "root's SSH keys"},
}};

constexpr std::array<std::string_view, 7> kGuardEnvFileNames = {
    ".env",         ".env.local", ".env.development", ".env.production", ".env.test",
    ".env.staging", ".envrc"};

std::string guard_resolved(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  const auto p = std::filesystem::weakly_canonical(path, ec);
  std::string out = ec ? path : p.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string guard_basename(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// `base` joined with `rel`; a base of "/" (HOME=/ in some containers) adds no slash.
std::string guard_join(const std::string& base, std::string_view rel) {
  if (rel.empty() || rel.front() == '/') return std::string(rel);
  return base == "/" ? "/" + std::string(rel) : base + "/" + std::string(rel);
}

bool guard_under(const std::string& path, const std::string& dir) {
  return !dir.empty() && (path == dir || (starts_with(path, dir) && path.size() > dir.size() &&
                                          (path[dir.size()] == '/' || dir == "/")));
}

bool rule_matches(const GuardRule& rule, const std::string& base, const std::string& path) {
  const std::string target = guard_join(base, rule.where);
  switch (rule.reach) {
    case GuardReach::kFile:
      return path == target;
    case GuardReach::kFileFamily:
      return starts_with(path, target) && path.find('/', target.size()) == std::string::npos;
    case GuardReach::kTree:
      return guard_under(path, target);
  }
  return false;
}

// Inside ~/.ssh only the files with nothing secret in them may be read.
bool ssh_read_allowed(const std::string& path, const std::string& ssh_dir) {
  if (path == ssh_dir) return true;  // Listing the directory shows names, not keys.
  const std::string rel = path.substr(ssh_dir.size() + 1);
  if (rel.find('/') != std::string::npos) return false;
  return rel.ends_with(".pub") || rel == "known_hosts" || rel == "known_hosts.old" ||
         rel == "authorized_keys" || rel == "config";
}

struct GuardHit {
  const GuardRule* rule = nullptr;
  std::string shown;  // "~/.aws", "<hermes home>/config.yaml", "/etc/shadow".
};

template <std::size_t N>
GuardHit find_rule(const std::array<GuardRule, N>& rules, const std::string& base,
                   std::string_view shown_base, const std::string& path, unsigned access) {
  for (const GuardRule& rule : rules) {
    if ((rule.access & access) == 0 || !rule_matches(rule, base, path)) continue;
    return {&rule, std::string(shown_base) + std::string(rule.where)};
  }
  return {};
}

std::string denial_text(std::string_view verb, const std::string& path, const GuardHit& hit) {
  const bool tree = hit.rule->reach == GuardReach::kTree;
  std::string what = tree ? "is inside " + hit.shown : "is " + hit.shown;
  if (hit.rule->reach == GuardReach::kFileFamily) what = "is one of " + hit.shown + "*";
  return std::string(verb) + " denied: '" + path + "' " + what + " (" + std::string(hit.rule->why) +
         ").";
}

}  // namespace

FileGuard make_file_guard(const std::string& hermes_home) {
  const char* home = std::getenv("HOME");
  return {home != nullptr && *home != '\0' ? guard_resolved(home) : "",
          guard_resolved(hermes_home)};
}

WriteVerdict FileGuard::check_write(const std::string& path) const {
  if (!user_home.empty() && path == guard_join(user_home, ".ssh/config"))
    return WriteVerdict::kNeedsApproval;
  return write_denial(path) ? WriteVerdict::kDenied : WriteVerdict::kAllowed;
}

std::optional<std::string> FileGuard::write_denial(const std::string& path) const {
  if (!user_home.empty() && path == guard_join(user_home, ".ssh/config")) return std::nullopt;
  GuardHit hit = find_rule(kSystemRules, "/", "", path, kGuardWrite);
  if (!hit.rule && !hermes_home.empty())
    hit = find_rule(kHermesHomeRules, hermes_home, "<hermes home>/", path, kGuardWrite);
  if (!hit.rule && !user_home.empty())
    hit = find_rule(kUserHomeRules, user_home, "~/", path, kGuardWrite);
  if (!hit.rule) return std::nullopt;
  return denial_text("Write", path, hit);
}

std::optional<std::string> FileGuard::check_read(const std::string& path) const {
  GuardHit hit = find_rule(kSystemRules, "/", "", path, kGuardRead);
  if (!hit.rule && !hermes_home.empty())
    hit = find_rule(kHermesHomeRules, hermes_home, "<hermes home>/", path, kGuardRead);
  if (!hit.rule && !user_home.empty()) {
    hit = find_rule(kUserHomeRules, user_home, "~/", path, kGuardRead);
    if (hit.rule && hit.rule->where == ".ssh" &&
        ssh_read_allowed(path, guard_join(user_home, ".ssh"))) {
      hit = {};
    }
  }
  if (hit.rule) return denial_text("Read", path, hit);
  const std::string name = guard_basename(path);
  if (list_contains(kGuardEnvFileNames, name)) {
    return "Read denied: '" + path +
           "' is an environment file (they hold secrets; read .env.example for its shape).";
  }
  return std::nullopt;
}

}  // namespace hermes::internal
