#include "settings.hpp"

#include <cstdlib>
#include <filesystem>

#include "config_file.hpp"
#include "provider_choice.hpp"

namespace hermes_cli {
namespace {

// `slot` takes the first set value of: option, environment variable, config value.
void layer(std::string& slot, const std::optional<std::string>& option, const char* env,
           const std::optional<std::string>& config) {
  const char* from_env = env != nullptr ? std::getenv(env) : nullptr;
  if (option) {
    slot = *option;
  } else if (from_env != nullptr && *from_env != '\0') {
    slot = from_env;
  } else if (config) {
    slot = *config;
  }
}

template <typename T>
void layer(T& slot, const std::optional<T>& option, const std::optional<T>& config) {
  if (option) {
    slot = *option;
  } else if (config) {
    slot = *config;
  }
}

// Fills the provider, base URL, wire format, key and model of `s`; returns what stops a
// model from being called, naming what to set.
std::optional<std::string> resolve_provider(const CliOptions& cli, const ConfigFile& file,
                                            Settings& s) {
  ProviderSources sources;
  sources.provider = cli.provider;
  sources.base_url = cli.base_url;
  sources.api_mode = cli.api_mode;
  sources.model = cli.model;
  sources.file_provider = file.provider;
  sources.file_base_url = file.base_url;
  sources.file_api_mode = file.api_mode;
  sources.file_model = file.model;
  ProviderChoice choice;
  choice.model = s.model;
  choice.base_url = s.base_url;
  auto problem = choose_provider(sources, choice);
  s.provider = choice.provider;
  s.base_url = choice.base_url;
  s.api_mode = choice.api_mode;
  s.api_key = choice.api_key;
  s.key_variable = choice.key_variable;
  s.model = choice.model;
  return problem;
}

}  // namespace

Settings resolve_settings(const CliOptions& cli) {
  Settings s;
  s.home = cli.home ? *cli.home : hermes::default_home();
  ConfigFile file = load_config_file(s.home + "/config.json");
  s.warnings = file.problems;
  if (file.unusable) {
    s.config_error = *file.unusable + "; correct it, or move it away to start from the defaults";
  }
  s.provider_error = resolve_provider(cli, file, s);
  layer(s.reasoning_effort, std::nullopt, nullptr, file.reasoning_effort);
  layer(s.toolsets, cli.toolsets, file.toolsets);
  layer(s.disabled_toolsets, std::optional<std::vector<std::string>>(), file.disabled_toolsets);
  layer(s.max_iterations, cli.max_iterations, file.max_iterations);
  layer(s.stream, cli.stream, file.stream);
  layer(s.quiet, cli.quiet, file.quiet);
  if (file.approval_mode) {
    s.approvals.mode = hermes::approval_mode_from_name(*file.approval_mode)
                           .value_or(hermes::ApprovalMode::kManual);
  }
  s.approvals.allowed_commands = file.allowed_commands;
  if (file.approval_timeout_seconds) {
    s.approvals.timeout = std::chrono::seconds(*file.approval_timeout_seconds);
  }
  s.skills.external_dirs = file.skill_dirs;
  s.skills.disabled = file.disabled_skills;
  if (s.toolsets.empty()) s.toolsets = hermes::default_toolsets();
  return s;
}

hermes::Result<std::shared_ptr<hermes::ToolRegistry>> make_tool_registry(const Settings& settings) {
  auto registry = std::make_shared<hermes::ToolRegistry>();
  hermes::BuiltinToolOptions builtins;
  builtins.approvals = settings.approvals;
  builtins.skills = settings.skills;
  if (hermes::Status s = hermes::register_builtin_tools(*registry, builtins); !s.ok()) return s;
  return registry;
}

hermes::AgentOptions make_agent_options(const Settings& settings) {
  hermes::AgentOptions o;
  o.provider.model = settings.model;
  o.provider.provider = settings.provider;
  o.provider.base_url = settings.base_url;
  o.provider.api_mode = settings.api_mode;
  o.provider.api_key = settings.api_key;
  o.home = settings.home;
  // The project the user started the CLI in brings its AGENTS.md (and the like).
  std::error_code ec;
  o.context_dir = std::filesystem::current_path(ec).string();
  // The terminal prints the model's text as it is.
  o.platform_hint =
      "You are in a plain terminal: markdown does not render, so asterisks, headers and code "
      "fences appear as typed. Write plain text, with indentation and blank lines for layout. "
      "Files cannot be attached here: give a file's absolute path and the user opens it.";
  o.tool_use.enabled_toolsets = settings.toolsets;
  o.tool_use.disabled_toolsets = settings.disabled_toolsets;
  o.skills = settings.skills;  // The system prompt's skills index follows the registry's.
  o.max_iterations = settings.max_iterations;
  o.request.stream = settings.stream;
  o.request.reasoning_effort = settings.reasoning_effort;
  o.tracing.sink = settings.trace_sink;
  return o;
}

}  // namespace hermes_cli
