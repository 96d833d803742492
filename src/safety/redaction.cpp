// The secret redactor: vendor-prefixed tokens, headers, keys, URLs and phone numbers.
// Every pass sits behind a cheap substring check its pattern requires, so the checks can
// never cause a miss.
#include "hermes/redaction.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/text_utils.hpp"
#include "safety/private_keys.hpp"
#include "safety/redaction_passes.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {
namespace {

struct PrefixPattern {
  std::string_view label;    // The literal prefix, shown in the non-reusable sentinel.
  std::string_view pattern;  // The whole token.
};

// Order matters where prefixes overlap: the longer Stripe prefixes come before sk_.
constexpr std::array<PrefixPattern, 56> kPrefixPatterns = {{
    {"sk-", R"(sk-[A-Za-z0-9_-](?:\.?[A-Za-z0-9_-]){9,})"},  // OpenAI, Anthropic, OpenRouter
    {"ghp_", R"(ghp_[A-Za-z0-9]{10,})"},                     // GitHub tokens
    {"github_pat_", R"(github_pat_[A-Za-z0-9_]{10,})"},
    {"gho_", R"(gho_[A-Za-z0-9]{10,})"},
    {"ghu_", R"(ghu_[A-Za-z0-9]{10,})"},
    {"ghs_", R"(ghs_[A-Za-z0-9]{10,})"},
    {"ghr_", R"(ghr_[A-Za-z0-9]{10,})"},
    {"xapp-", R"(xapp-\d+-[A-Za-z0-9-]{10,})"},  // Slack
    {"xox", R"(xox[baprs]-[A-Za-z0-9-]{10,})"},
    {"AIza", R"(AIza[A-Za-z0-9_-]{30,})"},  // Google
    {"pplx-", R"(pplx-[A-Za-z0-9]{10,})"},
    {"fal_", R"(fal_[A-Za-z0-9_-]{10,})"},
    {"fc-", R"(fc-[A-Za-z0-9]{10,})"},
    {"bb_live_", R"(bb_live_[A-Za-z0-9_-]{10,})"},
    {"gAAAA", R"(gAAAA[A-Za-z0-9_=-]{20,})"},     // Fernet-encrypted tokens
    {"AKIA", R"(AKIA[A-Z0-9]{16})"},              // AWS access key id
    {"sk_live_", R"(sk_live_[A-Za-z0-9]{10,})"},  // Stripe
    {"sk_test_", R"(sk_test_[A-Za-z0-9]{10,})"},
    {"rk_live_", R"(rk_live_[A-Za-z0-9]{10,})"},
    {"SG.", R"(SG\.[A-Za-z0-9_-]{10,})"},  // SendGrid
    {"hf_", R"(hf_[A-Za-z0-9]{10,})"},     // Hugging Face
    {"r8_", R"(r8_[A-Za-z0-9]{10,})"},     // Replicate
    {"npm_", R"(npm_[A-Za-z0-9]{10,})"},
    {"pypi-", R"(pypi-[A-Za-z0-9_-]{10,})"},
    {"dop_v1_", R"(dop_v1_[A-Za-z0-9]{10,})"},  // DigitalOcean
    {"doo_v1_", R"(doo_v1_[A-Za-z0-9]{10,})"},
    {"am_", R"(am_(?:org_)?[A-Za-z0-9]{20,})"},  // AgentMail: the body has no _ or -.
    {"sk_", R"(sk_[A-Za-z0-9_]{10,})"},          // ElevenLabs
    {"tvly-", R"(tvly-[A-Za-z0-9]{10,})"},
    {"exa_", R"(exa_[A-Za-z0-9]{10,})"},
    {"gsk_", R"(gsk_[A-Za-z0-9]{10,})"},  // Groq
    {"syt_", R"(syt_[A-Za-z0-9]{10,})"},  // Matrix
    {"retaindb_", R"(retaindb_[A-Za-z0-9]{10,})"},
    {"hsk-", R"(hsk-[A-Za-z0-9]{10,})"},
    {"mem0_", R"(mem0_[A-Za-z0-9]{10,})"},
    {"brv_", R"(brv_[A-Za-z0-9]{10,})"},
    {"xai-", R"(xai-[A-Za-z0-9]{30,})"},
    {"ntn_", R"(ntn_[A-Za-z0-9]{10,})"},  // Notion
    {"fw-", R"(fw-[A-Za-z0-9]{30,})"},    // Fireworks
    {"fw_", R"(fw_[A-Za-z0-9]{30,})"},
    {"fpk_", R"(fpk_[A-Za-z0-9]{30,})"},
    {"glpat-", R"(glpat-[A-Za-z0-9_-]{10,})"},  // GitLab token families
    {"gloas-", R"(gloas-[A-Za-z0-9_-]{10,})"},
    {"gldt-", R"(gldt-[A-Za-z0-9_-]{10,})"},
    {"glrt-", R"(glrt-[A-Za-z0-9_.-]{10,})"},  // Routable runner tokens are dotted.
    {"glrtr-", R"(glrtr-[A-Za-z0-9_.-]{10,})"},
    {"glcbt-", R"(glcbt-[A-Za-z0-9_-]{10,})"},
    {"glptt-", R"(glptt-[A-Za-z0-9_-]{10,})"},
    {"glft-", R"(glft-[A-Za-z0-9_-]{10,})"},
    {"glimt-", R"(glimt-[A-Za-z0-9_-]{10,})"},
    {"glagent-", R"(glagent-[A-Za-z0-9_-]{10,})"},
    {"glsoat-", R"(glsoat-[A-Za-z0-9_-]{10,})"},
    {"glffct-", R"(glffct-[A-Za-z0-9_-]{10,})"},
    {"glwt-", R"(glwt-[A-Za-z0-9_-]{10,})"},
    {"GR1348941", R"(GR1348941[A-Za-z0-9_-]{10,})"},
    {"pk-lf-", R"(pk-lf-[A-Za-z0-9-]{8,})"},  // Langfuse public key
}};

const Regex& prefix_regex() {
  static const Regex re = [] {
    std::string alternatives;
    for (const PrefixPattern& p : kPrefixPatterns) {
      if (!alternatives.empty()) alternatives += '|';
      alternatives += p.pattern;
    }
    // The leading boundary also holds right after a JSON escape (\n, \u00e9, \x41), where
    // transcripts put a credential straight after an alphanumeric byte.
    return Regex::builtin(
        R"((?:(?<![A-Za-z0-9_-])|(?<=\\[A-Za-z])|(?<=\\u[0-9a-fA-F]{4})|(?<=\\x[0-9a-fA-F]{2}))()" +
        alternatives + R"()(?![A-Za-z0-9_-]))");
  }();
  return re;
}

bool has_known_prefix(std::string_view text) {
  return std::any_of(kPrefixPatterns.begin(), kPrefixPatterns.end(), [&](const PrefixPattern& p) {
    return text.find(p.label) != std::string_view::npos;
  });
}

// Control and zero-width characters that can split a token body and hide it from the
// contiguous patterns.
std::size_t control_char_length(std::string_view text, std::size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  if (b < 0x20 || b == 0x7F) return 1;
  if (b < 0x80) return 0;
  const Utf8Char c = decode_utf8_at(text, i);
  const char32_t cp = c.cp;
  const bool control = (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
                       cp == 0x2060 || cp == 0xFEFF;
  return control ? c.length : 0;
}

bool is_token_body_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

using MaskFn = std::string (*)(std::string_view);

// Matches tokens on a copy without control characters, then masks the corresponding span
// of the original, but only when that span holds nothing but token and control characters.
std::string mask_control_split_tokens(std::string_view text, MaskFn mask) {
  bool any_control = false;
  for (std::size_t i = 0; i < text.size() && !any_control; ++i)
    any_control = control_char_length(text, i) != 0;
  if (!any_control) return std::string(text);
  std::string stripped;
  std::vector<std::size_t> origin;  // Byte offset in `text` of each byte of `stripped`.
  for (std::size_t i = 0; i < text.size();) {
    if (std::size_t n = control_char_length(text, i)) {
      i += n;
      continue;
    }
    stripped += text[i];
    origin.push_back(i++);
  }
  if (stripped.size() == text.size()) return std::string(text);
  struct Span {
    std::size_t begin, end;
    std::string replacement;
  };
  std::vector<Span> spans;
  for (std::size_t pos = 0;;) {
    auto m = prefix_regex().find(stripped, pos);
    if (!m) break;
    pos = m->end();
    const std::size_t b = origin[m->begin()];
    const std::size_t e = origin[m->end() - 1] + 1;
    const std::string_view span = text.substr(b, e - b);
    // A token ending a line next to a word on the next line stays a separate token.
    if (span.find_first_of("\r\n") != std::string_view::npos && prefix_regex().search(span))
      continue;
    bool clean = true;
    for (std::size_t i = 0; i < span.size() && clean;) {
      if (std::size_t n = control_char_length(span, i)) {
        i += n;
      } else {
        clean = is_token_body_char(span[i++]);
      }
    }
    if (!clean || (e < text.size() && text[e] == '=')) continue;
    spans.push_back({b, e, mask(m->group(stripped, 1))});
  }
  std::string out;
  std::size_t prev = 0;
  for (const Span& s : spans) {
    out.append(text.substr(prev, s.begin - prev));
    out += s.replacement;
    prev = s.end;
  }
  out.append(text.substr(prev));
  return out;
}

std::string redact_prefixed_tokens(std::string_view text, bool file_read) {
  const MaskFn mask = file_read ? +[](std::string_view t) { return mask_token_nonreusable(t); }
                                : +[](std::string_view t) { return mask_token(t); };
  const std::string unsplit = mask_control_split_tokens(text, mask);
  return substitute(unsplit, prefix_regex(),
                    [&](const Regex::Match& m) { return mask(m.group(unsplit, 1)); });
}

std::string redact_zhipu_keys(std::string_view text, bool file_read) {
  // The id is exactly 32 lower-case hex digits: content-hash file names never match.
  static const Regex re =
      Regex::builtin(R"((?<![A-Za-z0-9_.-])([0-9a-f]{32}\.[A-Za-z0-9]{16,})(?![A-Za-z0-9_.-]))");
  return substitute(text, re, [&](const Regex::Match& m) {
    return file_read ? mask_token_nonreusable(m.group(text, 1)) : mask_token(m.group(text, 1));
  });
}

std::string redact_headers_and_bot_tokens(std::string text) {
  static const Regex auth =
      Regex::builtin(R"(((?:Proxy-)?Authorization:\s*)([A-Za-z][\w.+-]*\s+)?([^\s"']+))",
                     RegexOptions{true, false, false});
  static const Regex api_header = Regex::builtin(
      R"(((?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token|x-access-token)\s*:\s*)(\S+))",
      RegexOptions{true, false, false});
  static const Regex telegram = Regex::builtin(R"((?<!\d)(bot)?(\d{8,}):([-A-Za-z0-9_]{30,}))");
  if (text.find("uthorization") != std::string::npos ||
      text.find("UTHORIZATION") != std::string::npos) {
    text = substitute(text, auth, [&](const Regex::Match& m) {
      return std::string(m.group(text, 1)) + std::string(m.group(text, 2)) +
             mask_token(m.group(text, 3));
    });
  }
  if (text.find(':') != std::string::npos) {
    text = substitute(text, api_header, [&](const Regex::Match& m) {
      return std::string(m.group(text, 1)) + mask_token(m.group(text, 2));
    });
    text = substitute(text, telegram, [&](const Regex::Match& m) {
      return std::string(m.group(text, 1)) + std::string(m.group(text, 2)) + ":***";
    });
  }
  return text;
}

std::string redact_url_credentials(std::string text, bool code_file) {
  // No whitespace in user or password: a match never runs past the end of a line.
  static const Regex db = Regex::builtin(
      R"(((?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp)://[^:\s]+:)([^@\s]+)(@))",
      RegexOptions{true, false, false});
  // scheme://TOKEN@host is always a credential; user:pass@ passes through on purpose.
  static const Regex bare =
      Regex::builtin(R"(((?:https?|wss?|git|ssh|ftp|ftps|sftp)://)([^\s:@/]{8,})(@[^\s]+))",
                     RegexOptions{true, false, false});
  if (text.find("://") == std::string::npos) return text;
  text = substitute(text, db, [&](const Regex::Match& m) {
    const std::string_view password = m.group(text, 2);
    // In source code a {placeholder} password is an f-string template, not a secret.
    if (code_file && password.front() == '{' && password.back() == '}')
      return std::string(m.group(text, 0));
    return std::string(m.group(text, 1)) + "***" + std::string(m.group(text, 3));
  });
  return substitute(text, bare, [&](const Regex::Match& m) {
    return std::string(m.group(text, 1)) + mask_token(m.group(text, 2)) +
           std::string(m.group(text, 3));
  });
}

std::string redact_jwts(std::string text) {
  static const Regex re = Regex::builtin(R"(eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_=-]{4,}){0,2})");
  if (text.find("eyJ") == std::string::npos) return text;
  return substitute(text, re, [&](const Regex::Match& m) { return mask_token(m.group(text, 0)); });
}

const std::array<std::string_view, 18> kSensitiveQueryParams = {
    "access_token",    "refresh_token",    "id_token", "token", "api_key",
    "apikey",          "client_secret",    "password", "auth",  "jwt",
    "session",         "secret",           "key",      "code",  "signature",
    "x-amz-signature", "x-goog-signature", "sig"};

bool is_sensitive_param(std::string name) {
  // Decode %XX (up to three rounds) and '+', then compare case-insensitively.
  for (int round = 0; round < 3; ++round) {
    std::string decoded;
    for (std::size_t i = 0; i < name.size(); ++i) {
      if (name[i] == '+') {
        decoded += ' ';
      } else if (name[i] == '%' && i + 2 < name.size() &&
                 std::isxdigit(static_cast<unsigned char>(name[i + 1])) &&
                 std::isxdigit(static_cast<unsigned char>(name[i + 2]))) {
        decoded += static_cast<char>(std::stoi(name.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        decoded += name[i];
      }
    }
    if (decoded == name) break;
    name = decoded;
  }
  name = lower_ascii(name);
  auto listed = [](std::string_view n) {
    return std::find(kSensitiveQueryParams.begin(), kSensitiveQueryParams.end(), n) !=
           kSensitiveQueryParams.end();
  };
  if (listed(name)) return true;
  std::replace(name.begin(), name.end(), '-', '_');
  return listed(name);
}

std::string redact_strict_url_credentials(std::string text) {
  static const Regex param = Regex::builtin(R"(([?#&;])([A-Za-z0-9_.~+%\-]+)=([^#&;\s"'<>]*))");
  static const Regex userinfo = Regex::builtin(R"(//[^/\s?#@]+@)");
  text = substitute(text, param, [&](const Regex::Match& m) {
    if (!is_sensitive_param(std::string(m.group(text, 2)))) return std::string(m.group(text, 0));
    return std::string(m.group(text, 1)) + std::string(m.group(text, 2)) + "=***";
  });
  return substitute(text, userinfo, [](const Regex::Match&) { return std::string("//***:***@"); });
}

// Only when the whole text is one k=v&k=v line (a form body).
std::string redact_form_body(std::string text) {
  static const Regex form =
      Regex::builtin(R"(^[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*(?:&[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*)+$)");
  if (text.find('\n') != std::string::npos || text.find('&') == std::string::npos) return text;
  const std::size_t b = text.find_first_not_of(" \t\r\f\v");
  const std::size_t e = text.find_last_not_of(" \t\r\f\v");
  if (b == std::string::npos) return text;
  const std::string body = text.substr(b, e - b + 1);
  if (!form.search(body)) return text;
  std::string out;
  for (std::size_t start = 0; start <= body.size();) {
    std::size_t amp = body.find('&', start);
    if (amp == std::string::npos) amp = body.size();
    const std::string pair = body.substr(start, amp - start);
    const std::size_t eq = pair.find('=');
    if (!out.empty()) out += '&';
    out += (eq != std::string::npos && is_sensitive_param(pair.substr(0, eq)))
               ? pair.substr(0, eq) + "=***"
               : pair;
    start = amp + 1;
  }
  return out;
}

std::string redact_phone_numbers(std::string text) {
  static const Regex re = Regex::builtin(R"((\+[1-9]\d{6,14})(?![A-Za-z0-9]))");
  if (text.find('+') == std::string::npos) return text;
  return substitute(text, re, [&](const Regex::Match& m) {
    const std::string_view phone = m.group(text, 1);
    const std::size_t keep = phone.size() <= 8 ? 2 : 4;
    return std::string(phone.substr(0, keep)) + "****" +
           std::string(phone.substr(phone.size() - keep));
  });
}

}  // namespace

std::string redact_url_passwords(std::string_view text) {
  // scheme://user:password@ with no whitespace, '/' or '@' inside the userinfo.
  static const Regex re = Regex::builtin(R"(([A-Za-z][A-Za-z0-9+.\-]*://[^\s:@/]+:)([^\s@/]+)(@))");
  if (text.find("://") == std::string_view::npos || text.find('@') == std::string_view::npos)
    return std::string(text);
  return substitute(text, re, [&](const Regex::Match& m) {
    return std::string(m.group(text, 1)) + "***" + std::string(m.group(text, 3));
  });
}

bool redaction_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("HERMES_REDACT_SECRETS");
    if (v == nullptr) return true;
    const std::string s = lower_ascii(v);
    return s == "1" || s == "true" || s == "yes" || s == "on";
  }();
  return enabled;
}

std::string mask_token(std::string_view token) {
  // Control and invisible characters never reach a display.
  std::vector<std::string_view> chars;
  for (std::size_t i = 0; i < token.size();) {
    const Utf8Char c = decode_utf8_at(token, i);
    const char32_t cp = c.cp;
    const bool hidden = cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x200B && cp <= 0x200F) ||
                        (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064);
    if (!hidden) chars.push_back(token.substr(i, c.length));
    i += c.length;
  }
  if (chars.size() < 18) return "***";
  std::string out;
  for (std::size_t i = 0; i < 6; ++i) out += chars[i];
  out += "...";
  for (std::size_t i = chars.size() - 4; i < chars.size(); ++i) out += chars[i];
  return out;
}

std::string mask_token_nonreusable(std::string_view token) {
  for (const PrefixPattern& p : kPrefixPatterns) {
    if (!token.empty() && token.substr(0, p.label.size()) == p.label) {
      return "\xC2\xAB"
             "redacted:" +
             std::string(p.label) + "\xE2\x80\xA6\xC2\xBB";
    }
  }
  return "\xC2\xAB"
         "redacted-secret\xC2\xBB";
}

std::string rewrite_matches(
    std::string_view text, const Regex& re,
    const std::function<std::optional<Rewrite>(const Regex::Match&)>& render) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto m = re.find(text, pos);
    if (!m) break;
    if (m->end() == m->begin()) {  // The passes never match empty text; stay safe if one does.
      out.append(text.substr(pos, m->end() + 1 - pos));
      pos = m->end() + 1;
      continue;
    }
    out.append(text.substr(pos, m->begin() - pos));
    if (std::optional<Rewrite> r = render(*m)) {
      out += r->text;
      pos = std::max(r->end, m->begin() + 1);
    } else {
      out.append(text.substr(m->begin(), m->end() - m->begin()));
      pos = m->end();
    }
  }
  if (pos < text.size()) out.append(text.substr(pos));
  return out;
}

std::string substitute(std::string_view text, const Regex& re,
                       const std::function<std::string(const Regex::Match&)>& replace) {
  return rewrite_matches(text, re, [&](const Regex::Match& m) {
    return Rewrite{replace(m), m.end()};
  });
}

}  // namespace hermes::internal

namespace hermes {

std::string redact_sensitive_text(std::string_view text, const RedactionOptions& options) {
  using namespace internal;
  std::string out(text);
  if (out.empty() || !(options.force || redaction_enabled())) return out;
  const bool code_file = (options.code_file || options.file_read) && !options.secret_file;
  // Keys first: the token passes below would mask pieces of a key body (an AKIA or sk-
  // run inside base64) and break the lines that show it is a key.
  out = redact_private_keys(out);
  if (has_known_prefix(out)) out = redact_prefixed_tokens(out, options.file_read);
  if (out.find('.') != std::string::npos) out = redact_zhipu_keys(out, options.file_read);
  if (!code_file) out = redact_assignments(out, options.file_read);
  out = redact_headers_and_bot_tokens(std::move(out));
  out = redact_url_credentials(std::move(out), code_file);
  out = redact_jwts(std::move(out));
  if (options.redact_url_credentials) out = redact_strict_url_credentials(std::move(out));
  if (out.find('&') != std::string::npos && out.find('=') != std::string::npos)
    out = redact_form_body(std::move(out));
  return redact_phone_numbers(std::move(out));
}

}  // namespace hermes
