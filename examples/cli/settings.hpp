// The CLI's effective settings: command-line options over the environment over
// <home>/config.json over the defaults, and the AgentOptions they make.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "hermes/hermes.hpp"

namespace hermes_cli {

struct Settings {
  std::string home;
  // The model service (see provider_presets.hpp): its preset's name, where it is, the
  // wire format (empty: resolved from base_url) and the key with the variable it is from.
  std::string model = "gpt-4.1-mini";
  std::string provider;
  std::string base_url = "https://api.openai.com/v1";
  std::string api_mode;
  std::string api_key;
  std::string key_variable;
  std::vector<std::string> toolsets;  // Empty: hermes::default_toolsets().
  std::vector<std::string> disabled_toolsets;
  int max_iterations = 90;
  bool stream = true;
  bool quiet = false;
  std::string reasoning_effort;
  hermes::ApprovalOptions approvals;
  hermes::SkillsOptions skills;
  // Where spans and metrics go (OTEL_* variables, tracing_sink.hpp); null: nowhere.
  std::shared_ptr<hermes::TraceSink> trace_sink;
  // Problems met while reading the configuration, for the user to see.
  std::vector<std::string> warnings;
  // The config file cannot be read as one (not JSON, not an object), with the fix: the
  // CLI stops before anything runs or is written.
  std::optional<std::string> config_error;
  // Why no model can be called with these settings (unknown provider, missing key, base
  // URL without a scheme, ...), naming what to set; a chat must not start. Listing and
  // searching sessions need no model and go ahead.
  std::optional<std::string> provider_error;
};

// Resolves the settings from the options, the environment and the config file.
//
// The provider is --provider, HERMES_PROVIDER or the file's "provider"; without one, the
// first preset whose key variable is set (OPENAI_API_KEY, ANTHROPIC_API_KEY,
// OPENROUTER_API_KEY, NOUS_API_KEY), else "custom" when a base URL is given. The base URL
// is --base-url, HERMES_BASE_URL, OPENAI_BASE_URL (openai and custom only), the file's
// "base_url", else the preset's; the wire format --api-mode, HERMES_API_MODE, the file's
// "api_mode", else the preset's; the model --model, HERMES_MODEL, the file's "model",
// else the preset's default.
Settings resolve_settings(const CliOptions& cli);

// The tool registry of the CLI: the built-in toolsets, with the file tools rooted at the
// working directory and the approval settings applied.
hermes::Result<std::shared_ptr<hermes::ToolRegistry>> make_tool_registry(const Settings& settings);

// The agent options of these settings (callbacks and registry are the caller's).
hermes::AgentOptions make_agent_options(const Settings& settings);

}  // namespace hermes_cli
