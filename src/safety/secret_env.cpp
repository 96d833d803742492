#include "safety/secret_env.hpp"

#include <array>

#include "common/text_utils.hpp"

extern char** environ;

namespace hermes::internal {
namespace {

// Words of a variable name (split at '_') that make it a secret. PWD counts only as a
// later word: PWD and OLDPWD are the shell's working directories.
constexpr std::array<std::string_view, 10> kSecretWords = {
    "TOKEN",  "TOKENS",     "KEY",         "KEYS",   "APIKEY",
    "SECRET", "CREDENTIAL", "CREDENTIALS", "PASSWD", "PASSWORD"};

// Parts of a word that make it a secret wherever they stand (CLIENTSECRET, DBPASSWORD).
constexpr std::array<std::string_view, 5> kSecretParts = {"SECRET", "PASSWORD", "PASSWD",
                                                          "CREDENTIAL", "PRIVATE_KEY"};

bool names_secret(const std::string& upper) {
  if (upper.starts_with("AZURE_")) return true;
  for (std::string_view part : kSecretParts) {
    if (contains(upper, part)) return true;
  }
  std::size_t start = 0;
  bool first = true;
  while (start <= upper.size()) {
    std::size_t end = upper.find('_', start);
    if (end == std::string::npos) end = upper.size();
    const std::string_view word = std::string_view(upper).substr(start, end - start);
    if (list_contains(kSecretWords, word) || (!first && word == "PWD")) return true;
    first = false;
    start = end + 1;
  }
  return false;
}

// scheme://user:password@host
bool url_with_password(std::string_view value) {
  const std::size_t scheme = value.find("://");
  if (scheme == std::string_view::npos) return false;
  const std::string_view rest = value.substr(scheme + 3);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  const std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return false;
  const std::size_t colon = authority.substr(0, at).find(':');
  return colon != std::string_view::npos && colon + 1 < at;
}

}  // namespace

bool is_secret_env(std::string_view name, std::string_view value) {
  const std::string upper = upper_ascii(name);
  if (names_secret(upper)) return true;
  const bool url_like =
      upper.ends_with("_URL") || upper.ends_with("_URI") || upper.ends_with("_DSN");
  return url_like && url_with_password(value);
}

std::map<std::string, std::string> inherited_environment(
    const std::vector<std::string>& pass_through) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string name(entry.substr(0, eq));
    const std::string_view value = entry.substr(eq + 1);
    if (is_secret_env(name, value) && !list_contains(pass_through, name)) continue;
    env[name] = std::string(value);
  }
  return env;
}

}  // namespace hermes::internal
