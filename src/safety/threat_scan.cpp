#include "safety/threat_scan.hpp"

#include <cstdio>
#include <set>

#include "safety/command_normalization.hpp"
#include "safety/regex.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {
namespace {

struct ThreatPattern {
  Regex regex;
  std::string_view id;
  bool strict_only = false;
};

// Bounded filler between key words (an unbounded run would make the patterns slow).
const std::string kFiller = R"((?:\w+\s+){0,8})";
const std::string kSecretVar = R"(\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b)";
const std::string kModify =
    R"((?:update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048})";

std::vector<ThreatPattern> build_patterns() {
  const RegexOptions icase{true, false, false};
  auto p = [&](const std::string& pattern, std::string_view id) {
    return ThreatPattern{Regex::builtin(pattern, icase), id};
  };
  auto strict = [&](const std::string& pattern, std::string_view id) {
    return ThreatPattern{Regex::builtin(pattern, icase), id, true};
  };
  const std::string& f = kFiller;
  return {
      // Instruction overrides and deception.
      p("ignore\\s+" + f + "(?:previous|all|above|prior)\\s+" + f + "instructions",
        "prompt_injection"),
      p(R"(system\s+prompt\s+override)", "sys_prompt_override"),
      p("disregard\\s+" + f + "(?:your|all|any)\\s+" + f + "(?:instructions|rules|guidelines)",
        "disregard_rules"),
      p("act\\s+as\\s+(?:if|though)\\s+" + f + "you\\s+" + f + "(?:have\\s+no|don't\\s+have)\\s+" +
            f + "(?:restrictions|limits|rules)",
        "bypass_restrictions"),
      p(R"(<!--[^>]{0,512}(?<![A-Za-z])(?:ignore|override|system|secret|hidden)(?![A-Za-z])[^>]{0,512}-->)",
        "html_comment_injection"),
      p(R"~(<\s*div\s+style\s*=\s*["'][^>]{0,2048}display\s*:\s*none)~", "hidden_div"),
      p(R"(translate\s+[^\n]{0,512}\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:execute|run|eval)\b)",
        "translate_execute"),
      p("do\\s+not\\s+" + f + "tell\\s+" + f + "the\\s+user", "deception_hide"),
      // Identity hijack.
      p("you\\s+are\\s+" + f + "now\\s+(?:a|an|the)\\s+", "role_hijack"),
      p("pretend\\s+" + f + "(?:you\\s+are|to\\s+be)\\s+", "role_pretend"),
      p("output\\s+" + f + "(?:system|initial)\\s+prompt", "leak_system_prompt"),
      p("(?:respond|answer|reply)\\s+without\\s+" + f +
            "(?:restrictions|limitations|filters|safety)",
        "remove_filters"),
      p("you\\s+have\\s+been\\s+" + f + "(?:updated|upgraded|patched)\\s+to", "fake_update"),
      p(R"(\bname\s+yourself\s+\w+)", "identity_override"),
      // Command-and-control vocabulary.
      p(R"(register\s+(?:as\s+)?a?\s*node)", "c2_node_registration"),
      p(R"((?:heartbeat|beacon|check[\s\-]?in)\s+(?:to|with)\s+)", "c2_heartbeat"),
      p(R"(pull\s+(?:down\s+)?(?:new\s+)?task(?:ing|s)?\b)", "c2_task_pull"),
      p(R"(connect\s+to\s+the\s+network\b)", "c2_network_connect"),
      p(R"(you\s+must\s+(?:\w+\s+){0,3}(?:register|connect|report|beacon)\b)", "forced_action"),
      p(R"(only\s+use\s+one[\s\-]?liners?\b)", "anti_forensic_oneliner"),
      p("never\\s+" + f + "(?:create|write)\\s+" + f + "(?:script|file)\\s+" + f + "disk",
        "anti_forensic_disk"),
      p(R"(unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*)", "env_var_unset_agent"),
      p(R"(\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b)",
        "known_c2_framework"),
      p(R"(\bc2\s+(?:server|channel|infrastructure|beacon)\b)", "c2_explicit"),
      p(R"(\bcommand\s+and\s+control\b)", "c2_explicit_long"),
      // Exfiltration.
      p(R"(curl\s+[^\n]{0,2048})" + kSecretVar, "exfil_curl"),
      p(R"(wget\s+[^\n]{0,2048})" + kSecretVar, "exfil_wget"),
      p(R"(cat\s+[^\n]{0,2048}(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc))",
        "read_secrets"),
      strict(R"((?:send|post|upload|transmit)\s+[^\n]{0,2048}\s+(?:to|at)\s+https?://)",
             "send_to_url"),
      strict("(?:include|output|print|share)\\s+" + f +
                 "(?:conversation|chat\\s+history|previous\\s+messages|full\\s+context|entire\\s+"
                 "context)",
             "context_exfil"),
      // Persistence.
      strict(R"(authorized_keys)", "ssh_backdoor"),
      strict(R"(\$HOME/\.ssh|~/\.ssh)", "ssh_access"),
      strict(R"(\$HOME/\.hermes/\.env|~/\.hermes/\.env)", "hermes_env"),
      strict(kModify + R"((?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules))",
             "agent_config_mod"),
      strict(kModify + R"(\.hermes/(?:config\.yaml|SOUL\.md))", "hermes_config_mod"),
      strict(R"~((?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][A-Za-z0-9+/=_-]{20,})~",
             "hardcoded_secret"),
  };
}

const std::vector<ThreatPattern>& patterns() {
  static const std::vector<ThreatPattern> all = build_patterns();
  return all;
}

bool is_invisible(char32_t cp) {
  return cp == 0x200B || cp == 0x200C || cp == 0x200D || cp == 0x2060 || cp == 0x2062 ||
         cp == 0x2063 || cp == 0x2064 || cp == 0xFEFF || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::vector<std::string> scan_for_threats(std::string_view content, ThreatScope scope) {
  std::vector<std::string> findings;
  if (content.empty()) return findings;
  content = content.substr(0, kMaxThreatScanChars);
  // Invisible characters first, on the raw text: normalisation could drop them.
  std::set<char32_t> invisible;
  for (std::size_t i = 0; i < content.size();) {
    const Utf8Char c = decode_utf8_at(content, i);
    if (is_invisible(c.cp)) invisible.insert(c.cp);
    i += c.length;
  }
  for (char32_t cp : invisible) {
    char id[40];
    std::snprintf(id, sizeof id, "invisible_unicode_U+%04X", static_cast<unsigned>(cp));
    findings.emplace_back(id);
  }
  // Fullwidth letters are folded so "ｃａｔ" reads as "cat".
  const std::string normalized = fold_compatibility_characters(content);
  for (const ThreatPattern& p : patterns()) {
    if (p.strict_only && scope != ThreatScope::kStrict) continue;
    if (p.regex.search(normalized)) findings.emplace_back(p.id);
  }
  return findings;
}

std::optional<std::string> first_threat_message(std::string_view content) {
  const std::vector<std::string> findings = scan_for_threats(content);
  if (findings.empty()) return std::nullopt;
  const std::string& id = findings.front();
  constexpr std::string_view kInvisible = "invisible_unicode_";
  if (id.starts_with(kInvisible)) {
    return "Blocked: content contains invisible unicode character " + id.substr(kInvisible.size()) +
           " (possible injection).";
  }
  return "Blocked: content matches threat pattern '" + id +
         "'. Content is injected into the system prompt and must not contain injection or "
         "exfiltration payloads.";
}

}  // namespace hermes::internal
