// <home>/config.json: the user's standing settings for the CLI.
//
//   {"model": "gpt-4.1-mini", "provider": "openai", "base_url": "https://...",
//    "api_mode": "chat_completions",
//    "toolsets": ["coding"], "disabled_toolsets": [], "max_iterations": 90,
//    "stream": true, "quiet": false, "reasoning_effort": "medium",
//    "approvals": {"mode": "manual", "timeout_seconds": 300},
//    "skills": {"external_dirs": [], "disabled": []}}
//
// Every key is optional. A file that is not JSON, a key of the wrong type or an unknown
// key is reported (naming the line or the key) and the defaults stand in for what could
// not be read: a typo in the file must never stop the CLI from starting.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hermes_cli {

struct ConfigFile {
  std::optional<std::string> model;
  std::optional<std::string> provider;
  std::optional<std::string> base_url;
  std::optional<std::string> api_mode;
  std::optional<std::vector<std::string>> toolsets;
  std::optional<std::vector<std::string>> disabled_toolsets;
  std::optional<int> max_iterations;
  std::optional<bool> stream;
  std::optional<bool> quiet;
  std::optional<std::string> reasoning_effort;
  std::optional<std::string> approval_mode;  // manual, smart, off, ask, allowlist
  std::optional<int> approval_timeout_seconds;
  std::vector<std::string> allowed_commands;  // What allowlist mode runs without asking.
  std::vector<std::string> skill_dirs;
  std::vector<std::string> disabled_skills;

  // One line per problem found, e.g. "config.json: \"max_iterations\" must be ...".
  std::vector<std::string> problems;
  // Set when the file is not a JSON object at all (not JSON, or an array...): nothing in
  // it can be trusted to mean what its writer meant, so nothing of it applies.
  std::optional<std::string> unusable;
};

// Reads `path`. A missing file is not a problem: it yields an empty ConfigFile.
ConfigFile load_config_file(const std::string& path);

// Parses the text of a config file; `name` prefixes the problems.
ConfigFile parse_config_text(const std::string& text, const std::string& name);

}  // namespace hermes_cli
