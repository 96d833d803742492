// Key-based redaction: a value is masked because of the name it is assigned to (env,
// dotted and line-anchored config keys, JSON fields, Python repr fields, YAML keys).
// The key must carry a secret word at a word boundary (API_KEY and clientSecret count,
// KEYBOARD and Secretary do not), and ambiguous keys (token, key) need an opaque value.
#include <algorithm>
#include <array>
#include <cctype>

#include "common/text_utils.hpp"
#include "safety/redaction_passes.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {
namespace {

constexpr RegexOptions kIgnoreCase{true, false, false};
constexpr RegexOptions kIgnoreCaseMultiline{true, true, false};

bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || static_cast<unsigned char>(c) >= 0x80;
}
bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}

// A keyword starts a word at the key's edge, after a non-letter, or at a camelCase or
// acronym boundary (clientSecret, APIToken).
bool is_word_start(std::string_view s, std::size_t i) {
  if (i == 0) return true;
  const char prev = s[i - 1];
  const char cur = s[i];
  if (!is_alpha(prev) || (is_upper(cur) && is_lower(prev))) return true;
  return is_upper(cur) && is_upper(prev) && i + 1 < s.size() && is_lower(s[i + 1]);
}

// A keyword ends a word at the key's edge, before a non-letter or a camelCase boundary;
// one plural s is part of it.
bool is_word_end(std::string_view s, std::size_t j, bool allow_plural = true) {
  if (j >= s.size()) return true;
  const char cur = s[j];
  if (!is_alpha(cur) || (is_upper(cur) && is_lower(s[j - 1]))) return true;
  return allow_plural && (cur == 's' || cur == 'S') && is_word_end(s, j + 1, false);
}

bool has_word_bounded_keyword(std::string_view key, const Regex& keywords) {
  for (std::size_t pos = 0; pos < key.size();) {
    auto m = keywords.find(key, pos);
    if (!m) return false;
    if (is_word_start(key, m->begin()) && is_word_end(key, m->end())) return true;
    pos = std::max(m->end(), m->begin() + 1);
  }
  return false;
}

const Regex& key_keywords() {
  static const Regex re = Regex::builtin(
      R"((?:api|auth|access|refresh|session|secret)[ _.\\-]?(?:key|token)|token|secret|passwd|password|pass|pw|credential|auth|key)",
      kIgnoreCase);
  return re;
}

// Names that are credentials whatever the value looks like. Bare token and key also name
// model limits and cache keys, so they are left to the value-shape test.
const Regex& strong_keywords() {
  static const Regex re = Regex::builtin(
      R"((?:api|auth|access|refresh|session|id|bearer)[ _.\\-]?(?:key|token)|key[ _.\\-]?material|secret|passwd|password|pass|pw|credential|auth|bearer)",
      kIgnoreCase);
  return re;
}

const Regex& password_keywords() {
  static const Regex re = Regex::builtin(R"(passwd|password|pass|pw)", kIgnoreCase);
  return re;
}

bool looks_like_opaque_credential(std::string_view value) {
  if (value == "***" || starts_with(value,
                                    "\xC2\xAB"
                                    "redacted:"))
    return true;
  const std::size_t n = utf8_length(value);
  if (n >= 16 && std::all_of(value.begin(), value.end(),
                             [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); })) {
    return true;
  }
  if (n >= 20 && std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("_./+=-").find(c) != std::string_view::npos;
      })) {
    return true;
  }
  if (n < 12) return false;
  const bool lower = std::any_of(value.begin(), value.end(), is_lower);
  const bool upper = std::any_of(value.begin(), value.end(), is_upper);
  const bool digit =
      std::any_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  return lower + upper + digit >= 2;
}

bool is_env_lookup(std::string_view value) {
  return starts_with(value, "os.getenv") || starts_with(value, "os.environ") ||
         starts_with(value, "process.env") || starts_with(value, "$ENV{");
}

// 16+ characters with a lower-case letter, an upper-case letter and a digit, and no dot:
// a token, not a file or directory name. Plain code rather than three look-aheads: one
// pass over the segment, whatever its length.
bool is_opaque_path_segment(std::string_view segment) {
  if (segment.size() < 16 || segment.find('.') != std::string_view::npos) return false;
  bool lower = false, upper = false, digit = false;
  for (char c : segment) {
    lower = lower || is_lower(c);
    upper = upper || is_upper(c);
    digit = digit || (c >= '0' && c <= '9');
  }
  return lower && upper && digit;
}

// $VAR references, ~/ and absolute paths are configuration, unless a path segment looks
// like a secret (16+ characters mixing cases and digits, no dot).
bool is_path_or_variable(std::string_view key, std::string_view value) {
  static const Regex path_or_var = Regex::builtin(
      R"((?:\$(?:\{[A-Za-z_]\w*[^}]*\}|[A-Za-z_]\w*)|\$\(|~|/)(?:[\w./:-]|\$(?:\{[A-Za-z_]\w*[^}]*\}|[A-Za-z_]\w*))*)");
  if (!path_or_var.full_match(value) || has_word_bounded_keyword(key, password_keywords()))
    return false;
  if (value[0] == '$') return true;
  for (std::size_t b = 0; b <= value.size();) {
    std::size_t e = value.find('/', b);
    if (e == std::string_view::npos) e = value.size();
    if (is_opaque_path_segment(value.substr(b, e - b))) return false;
    b = e + 1;
  }
  return true;
}

bool should_redact_assignment(std::string_view key, std::string_view value, bool check_keyword) {
  if (value.empty() || is_env_lookup(value)) return false;
  if (value == "***" || starts_with(value,
                                    "\xC2\xAB"
                                    "redacted"))
    return false;  // Already masked.
  if (check_keyword && !has_word_bounded_keyword(key, key_keywords())) return false;
  if (is_path_or_variable(key, value)) return false;
  return has_word_bounded_keyword(key, strong_keywords()) || looks_like_opaque_credential(value);
}

std::string mask(std::string_view value, bool nonreusable) {
  return nonreusable ? mask_token_nonreusable(value) : mask_token(value);
}

// NAME=value where the value may be quoted; a quote that is not closed on the same word
// belongs to the value (what a \2 backreference does in the upstream pattern).
struct QuotedValue {
  std::string_view quote;
  std::string_view value;
  std::size_t end;
};

// `run` is the greedy \S+ after the optional quote.
QuotedValue env_value(std::string_view text, const Regex::Match& m, int quote_group,
                      int run_group) {
  const std::string_view q = m.group(text, quote_group);
  const std::string_view run = m.group(text, run_group);
  const auto run_begin = static_cast<std::size_t>(m.offsets[2 * run_group]);
  if (!q.empty()) {
    const std::size_t close = run.rfind(q[0]);
    if (close != std::string_view::npos && close >= 1)
      return {q, run.substr(0, close), run_begin + close + 1};
    return {{}, text.substr(run_begin - 1, run.size() + 1), m.end()};
  }
  return {{}, run, m.end()};
}

// The same for config values, which end at whitespace or & and close their quote last.
QuotedValue config_value(std::string_view text, const Regex::Match& m, int quote_group,
                         int run_group) {
  const std::string_view q = m.group(text, quote_group);
  const std::string_view run = m.group(text, run_group);
  const auto run_begin = static_cast<std::size_t>(m.offsets[2 * run_group]);
  if (!q.empty()) {
    if (run.size() >= 2 && run.back() == q[0]) return {q, run.substr(0, run.size() - 1), m.end()};
    return {{}, text.substr(run_begin - 1, run.size() + 1), m.end()};
  }
  return {{}, run, m.end()};
}

using ValueReader = QuotedValue (*)(std::string_view, const Regex::Match&, int, int);

std::string redact_key_value(std::string_view text, const Regex& re, ValueReader read,
                             bool nonreusable) {
  return rewrite_matches(text, re, [&](const Regex::Match& m) -> std::optional<Rewrite> {
    const std::string_view key = m.group(text, 1);
    const QuotedValue v = read(text, m, 2, 3);
    if (!should_redact_assignment(key, v.value, true)) return std::nullopt;
    std::string out = std::string(key) + "=" + std::string(v.quote) + mask(v.value, nonreusable) +
                      std::string(v.quote);
    return Rewrite{std::move(out), v.end};
  });
}

const char* kConfigNames = R"((?:api[ _.\-]?key|token|secret|passwd|password|credential|auth))";
const char* kGutter = R"((?:[0-9]+(?:[|:\-]|\t)[ \t]*)?)";  // 5| 6: 7- and cat -n's TAB.

std::string redact_env_and_config(std::string text, bool nonreusable) {
  static const Regex env = Regex::builtin(
      R"(([A-Z0-9_]{0,50}(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PW|CREDENTIAL|AUTH)[A-Z0-9_]{0,50})\s*=\s*(['"]?)(\S+))");
  // Lower-case names only in underscore form (openai_key=): bare password= is prose.
  static const Regex env_lower = Regex::builtin(
      R"((?<![a-z0-9_])([a-z0-9_]+_(?:key|pass|pw|token|secret|password|passwd|credential|auth)(?=[^a-z0-9_]|$))\s*=\s*(['"]?)(\S+))",
      kIgnoreCase);
  static const Regex secret_word = Regex::builtin(kConfigNames, kIgnoreCase);
  static const Regex dotted =
      Regex::builtin(std::string(R"((?<![A-Za-z0-9_.\-])([A-Za-z0-9_\-]+\.[A-Za-z0-9_.\-]*)") +
                         kConfigNames + R"([A-Za-z0-9_.\-]*|[A-Za-z0-9_.\-]*)" + kConfigNames +
                         R"([A-Za-z0-9_.\-]*\.[A-Za-z0-9_.\-]+)=(['"]?)([^\s&]+))",
                     kIgnoreCase);
  static const Regex anchored =
      Regex::builtin(std::string(R"((^[ \t]*)") + kGutter + R"((?:export[ \t]+)?[A-Za-z0-9_\-]*)" +
                         kConfigNames + R"([A-Za-z0-9_\-]*)=(['"]?)([^\s&]+))",
                     kIgnoreCaseMultiline);
  if (text.find('=') == std::string::npos) return text;
  text = redact_key_value(text, env, env_value, nonreusable);
  // URL query parameters (token=, key=) pass through on purpose.
  if (text.find("://") != std::string::npos) return text;
  text = redact_key_value(text, env_lower, env_value, nonreusable);
  if (!secret_word.search(text)) return text;
  text = redact_key_value(text, dotted, config_value, nonreusable);
  return redact_key_value(text, anchored, config_value, nonreusable);
}

std::string redact_json_fields(std::string text, bool nonreusable) {
  const std::string names =
      R"((?:api_?key|token|secret|password|access_token|refresh_token|auth_token|bearer|secret_value|raw_secret|secret_input|key_material))";
  static const Regex field =
      Regex::builtin(R"~((")~" + names + R"~(")\s*:\s*"([^"]+)")~", kIgnoreCase);
  // The same field inside a JSON-encoded string, at one escape depth throughout.
  static const Regex escaped = Regex::builtin(
      R"~(((\\+)")~" + names + R"~((\\+)")\s*:\s*(\\+)"([^"\\]+)(\\+)")~", kIgnoreCase);
  if (text.find(':') == std::string::npos || text.find('"') == std::string::npos) return text;
  text = rewrite_matches(text, field, [&](const Regex::Match& m) -> std::optional<Rewrite> {
    const std::string_view value = m.group(text, 2);
    if (!should_redact_assignment(m.group(text, 1), value, false)) return std::nullopt;
    return Rewrite{std::string(m.group(text, 1)) + ": \"" + mask(value, nonreusable) + "\"",
                   m.end()};
  });
  if (text.find("\\\"") == std::string::npos) return text;
  return rewrite_matches(text, escaped, [&](const Regex::Match& m) -> std::optional<Rewrite> {
    const std::string_view esc = m.group(text, 2);
    if (m.group(text, 3) != esc || m.group(text, 4) != esc || m.group(text, 6) != esc)
      return std::nullopt;
    const std::string_view value = m.group(text, 5);
    if (!should_redact_assignment(m.group(text, 1), value, false)) return std::nullopt;
    return Rewrite{std::string(m.group(text, 1)) + ": " + std::string(esc) + "\"" +
                       mask(value, nonreusable) + std::string(esc) + "\"",
                   m.end()};
  });
}

// Unquoted YAML values; quoted ones were the JSON pass's. Bare `auth` is left out so
// Authorization: and author: never match.
std::string redact_yaml_keys(std::string text, bool nonreusable) {
  static const Regex yaml = Regex::builtin(
      std::string(R"((^[ \t]*)") + kGutter +
          R"([A-Za-z0-9_.\-]*(?:api[ _.\-]?key|token|secret|passwd|password|credential)[A-Za-z0-9_.\-]*)(:[ \t]*)(?!['"])([^\s&]+))",
      kIgnoreCaseMultiline);
  if (text.find(':') == std::string::npos || text.find("://") != std::string::npos) return text;
  return rewrite_matches(text, yaml, [&](const Regex::Match& m) -> std::optional<Rewrite> {
    const std::string_view value = m.group(text, 3);
    if (!should_redact_assignment(m.group(text, 1), value, true)) return std::nullopt;
    return Rewrite{
        std::string(m.group(text, 1)) + std::string(m.group(text, 2)) + mask(value, nonreusable),
        m.end()};
  });
}

bool is_repr_secret_key(std::string_view key) {
  static constexpr std::array<std::string_view, 20> kExact = {
      "access_token", "refresh_token", "id_token",      "auth_token",   "token",
      "api_key",      "apikey",        "client_secret", "secret",       "password",
      "passwd",       "private_key",   "credential",    "credentials",  "authorization",
      "bearer",       "secret_value",  "raw_secret",    "secret_input", "key_material"};
  static constexpr std::array<std::string_view, 7> kUpperSuffixes = {
      "_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_CREDENTIAL", "_CREDENTIALS"};
  static constexpr std::array<std::string_view, 8> kSuffixes = {
      "apikey", "api_key", "token", "secret", "password", "passwd", "credential", "credentials"};
  const std::string folded = lower_ascii(key);
  if (std::find(kExact.begin(), kExact.end(), folded) != kExact.end()) return true;
  const bool all_upper = std::any_of(key.begin(), key.end(), is_upper) &&
                         std::none_of(key.begin(), key.end(), is_lower);
  if (all_upper && std::any_of(kUpperSuffixes.begin(), kUpperSuffixes.end(),
                               [&](auto s) { return ends_with(key, s); })) {
    return true;
  }
  // Suffix only: token_count and password_policy are metadata.
  return std::any_of(kSuffixes.begin(), kSuffixes.end(),
                     [&](auto s) { return ends_with(folded, s); });
}

}  // namespace

std::string redact_python_repr_fields(std::string_view text) {
  static const Regex field = Regex::builtin(
      R"~('([A-Za-z_][A-Za-z0-9_]*)'(\s*:\s*)(?:([bB]?)'((?:\\.|[^'\\])+)'|([bB]?)"((?:\\.|[^"\\])+)"))~");
  return rewrite_matches(text, field, [&](const Regex::Match& m) -> std::optional<Rewrite> {
    const std::string_view key = m.group(text, 1);
    if (!is_repr_secret_key(key)) return std::nullopt;
    const bool single = m.has(4);
    const std::string_view value = m.group(text, single ? 4 : 6);
    if (is_env_lookup(value) || value.find("***") != std::string_view::npos ||
        starts_with(value,
                    "\xC2\xAB"
                    "redacted:")) {
      return std::nullopt;
    }
    // No head or tail: an escaped character cut in half would leave a stray quote.
    const std::string quote = single ? "'" : "\"";
    return Rewrite{"'" + std::string(key) + "'" + std::string(m.group(text, 2)) +
                       std::string(m.group(text, single ? 3 : 5)) + quote + "***" + quote,
                   m.end()};
  });
}

std::string redact_assignments(std::string_view text, bool nonreusable) {
  std::string out = redact_env_and_config(std::string(text), nonreusable);
  out = redact_json_fields(std::move(out), nonreusable);
  if (out.find(':') != std::string::npos && out.find('\'') != std::string::npos)
    out = redact_python_repr_fields(out);
  return redact_yaml_keys(std::move(out), nonreusable);
}

}  // namespace hermes::internal
