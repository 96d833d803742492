#include "settings.hpp"

#include <cstdlib>
#include <filesystem>

#include "config_file.hpp"
#include "provider_presets.hpp"

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

// A value and where it came from ("--base-url", "HERMES_BASE_URL", ...), for messages.
struct Sourced {
  std::string value;
  std::string source;
};

// The first set value of: option, environment variables (in order), config file key.
std::optional<Sourced> first_set(const std::optional<std::string>& option, const char* flag,
                                 const std::vector<const char*>& variables,
                                 const std::optional<std::string>& config, const char* config_key) {
  if (option) return Sourced{*option, flag};
  for (const char* variable : variables) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return Sourced{value, variable};
  }
  if (config) return Sourced{*config, std::string("config.json \"") + config_key + "\""};
  return std::nullopt;
}

bool has_http_scheme(const std::string& url) {
  return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
}

// The wire format, when one is asked for: the library's names, and "responses".
std::optional<std::string> check_api_mode(const Sourced& mode) {
  for (const char* known :
       {"chat_completions", "codex_responses", "responses", "anthropic_messages"}) {
    if (mode.value == known) return std::nullopt;
  }
  return "unknown api mode '" + mode.value + "' (" + mode.source +
         "); choose chat_completions, codex_responses or anthropic_messages";
}

// Fills the provider, base URL, wire format, key and model of `s`; returns what stops a
// model from being called, naming what to set.
std::optional<std::string> resolve_provider(const CliOptions& cli, const ConfigFile& file,
                                            Settings& s) {
  const ProviderPreset* preset = nullptr;
  if (auto name =
          first_set(cli.provider, "--provider", {"HERMES_PROVIDER"}, file.provider, "provider")) {
    preset = find_provider_preset(name->value);
    if (preset == nullptr) {
      return "unknown provider '" + name->value + "' (" + name->source +
             "); choose one of: " + provider_preset_names();
    }
  } else {
    preset = preset_from_environment();
  }
  // OPENAI_BASE_URL points OpenAI's clients elsewhere; it says nothing about the others.
  std::vector<const char*> url_variables = {"HERMES_BASE_URL"};
  if (preset == nullptr || preset->name == "openai" || preset->name == "custom") {
    url_variables.push_back("OPENAI_BASE_URL");
  }
  const auto url = first_set(cli.base_url, "--base-url", url_variables, file.base_url, "base_url");
  if (preset == nullptr && !url) {
    return "no API key found: set one of " + required_key_variables() +
           ", or choose a provider with --provider (" + provider_preset_names() +
           ") or a server with --base-url";
  }
  if (preset == nullptr) preset = find_provider_preset("custom");  // A server, no key.

  s.provider = std::string(preset->name);
  s.base_url = url ? url->value : std::string(preset->base_url);
  if (s.base_url.empty()) {
    return "provider " + s.provider +
           " needs a base URL: --base-url, HERMES_BASE_URL or OPENAI_BASE_URL";
  }
  if (url && !has_http_scheme(url->value)) {
    return "base URL '" + url->value + "' (" + url->source +
           ") has no http:// or https:// scheme; write e.g. http://localhost:8080/v1";
  }
  if (auto mode =
          first_set(cli.api_mode, "--api-mode", {"HERMES_API_MODE"}, file.api_mode, "api_mode")) {
    if (auto problem = check_api_mode(*mode)) return problem;
    s.api_mode = mode->value;
  } else {
    s.api_mode = std::string(preset->api_mode);
  }
  s.key_variable = std::string(preset->key_variable);
  const char* key = std::getenv(s.key_variable.c_str());
  s.api_key = key != nullptr ? key : "";
  if (s.api_key.empty() && preset->key_required) {
    return "provider " + s.provider + " needs an API key: set " + s.key_variable;
  }
  if (auto model = first_set(cli.model, "--model", {"HERMES_MODEL"}, file.model, "model")) {
    s.model = model->value;
  } else {
    s.model = std::string(preset->default_model);
  }
  if (s.model.empty()) {
    return "provider " + s.provider + " needs a model name: --model or HERMES_MODEL";
  }
  return std::nullopt;
}

}  // namespace

Settings resolve_settings(const CliOptions& cli) {
  Settings s;
  s.home = cli.home ? *cli.home : hermes::default_home();
  ConfigFile file = load_config_file(s.home + "/config.json");
  s.warnings = file.problems;
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
  o.model = settings.model;
  o.provider = settings.provider;
  o.base_url = settings.base_url;
  o.api_mode = settings.api_mode;
  o.api_key = settings.api_key;
  o.home = settings.home;
  // The project the user started the CLI in brings its AGENTS.md (and the like).
  std::error_code ec;
  o.context_dir = std::filesystem::current_path(ec).string();
  // The terminal prints the model's text as it is.
  o.platform_hint =
      "You are in a plain terminal: markdown does not render, so asterisks, headers and code "
      "fences appear as typed. Write plain text, with indentation and blank lines for layout. "
      "Files cannot be attached here: give a file's absolute path and the user opens it.";
  o.enabled_toolsets = settings.toolsets;
  o.disabled_toolsets = settings.disabled_toolsets;
  o.skills = settings.skills;  // The system prompt's skills index follows the registry's.
  o.max_iterations = settings.max_iterations;
  o.stream = settings.stream;
  o.reasoning_effort = settings.reasoning_effort;
  return o;
}

}  // namespace hermes_cli
