// The CLI's effective settings: command-line options over the environment over
// <home>/config.json over the defaults, and the AgentOptions they make.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "hermes/hermes.hpp"

namespace hermes_cli {

struct Settings {
  std::string home;
  std::string model = "gpt-4.1-mini";
  std::string provider;
  std::string base_url = "https://api.openai.com/v1";
  std::string api_key;
  std::vector<std::string> toolsets;  // Empty: hermes::default_toolsets().
  std::vector<std::string> disabled_toolsets;
  int max_iterations = 90;
  bool stream = true;
  bool quiet = false;
  std::string reasoning_effort;
  hermes::ApprovalOptions approvals;
  hermes::SkillsOptions skills;
  // Problems met while reading the configuration, for the user to see.
  std::vector<std::string> warnings;
};

// Resolves the settings from the options, the environment and the config file.
Settings resolve_settings(const CliOptions& cli);

// The tool registry of the CLI: the built-in toolsets, with the file tools rooted at the
// working directory and the approval settings applied.
hermes::Result<std::shared_ptr<hermes::ToolRegistry>> make_tool_registry(const Settings& settings);

// The agent options of these settings (callbacks and registry are the caller's).
hermes::AgentOptions make_agent_options(const Settings& settings);

}  // namespace hermes_cli
