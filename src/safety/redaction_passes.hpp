// The passes of the secret redactor, shared by its entry points (redaction.cpp) and its
// key-based assignment passes (redaction_assignments.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "safety/regex.hpp"

namespace hermes::internal {

// `***` for tokens shorter than 18 characters, else the first 6 and last 4 around "...".
std::string mask_token(std::string_view token);

// «redacted:<vendor prefix>…», or «redacted-secret» when no known prefix starts `token`:
// no secret characters survive, and the result cannot pass for a real key.
std::string mask_token_nonreusable(std::string_view token);

// What replaces one match: `text`, and where scanning resumes (normally the match end;
// earlier when the match is shortened, as a backreference in the pattern would have).
struct Rewrite {
  std::string text;
  std::size_t end = 0;
};

// `text` with each match of `re` rewritten by `render`; nullopt keeps the match as is.
std::string rewrite_matches(
    std::string_view text, const Regex& re,
    const std::function<std::optional<Rewrite>(const Regex::Match&)>& render);

// Rewrites each match to `replace(match)`, ending at the match end.
std::string substitute(std::string_view text, const Regex& re,
                       const std::function<std::string(const Regex::Match&)>& replace);

// ENV / config / JSON / Python-repr / YAML assignments whose key names a secret.
std::string redact_assignments(std::string_view text, bool nonreusable);

// Python mapping repr fields ('API_KEY': 'value') with a credential key, fully masked.
std::string redact_python_repr_fields(std::string_view text);

// Terminal output: source-preserving unless `command` dumps the environment or reads a
// secret-bearing file; pytest and exception lines get the repr pass either way.
std::string redact_terminal_output(std::string_view output, std::string_view command);

// Whether a path names a secret-bearing file: .env-style and shell rc basenames anywhere,
// config.yaml only inside a .hermes directory or `hermes_home`.
bool is_secret_bearing_path(std::string_view path, std::string_view hermes_home);

// The password of every URL's userinfo masked (https://user:***@host), whatever the
// scheme; the user name stays. For text from outside hermes on its way to the model.
std::string redact_url_passwords(std::string_view text);

// Whether redaction is switched on (HERMES_REDACT_SECRETS, read once).
bool redaction_enabled();

}  // namespace hermes::internal
