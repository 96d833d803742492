#include "provider_choice.hpp"

#include <cstdlib>
#include <vector>

#include "provider_presets.hpp"

namespace hermes_cli {
namespace {

// A value and where it came from ("--base-url", "HERMES_BASE_URL", ...), for messages.
struct Sourced {
  std::string value;
  std::string source;
};

// The first set value of: option, environment variables (in order), config file key.
std::optional<Sourced> first_set(const std::optional<std::string>& option, const char* flag,
                                 const std::vector<const char*>& variables,
                                 const std::optional<std::string>& file_value,
                                 const std::string& file_name, const char* file_key) {
  if (option) return Sourced{*option, flag};
  for (const char* variable : variables) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return Sourced{value, variable};
  }
  if (file_value) return Sourced{*file_value, file_name + " \"" + file_key + "\""};
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

}  // namespace

std::optional<std::string> choose_provider(const ProviderSources& in, ProviderChoice& out) {
  const ProviderPreset* preset = nullptr;
  if (auto name = first_set(in.provider, "--provider", {"HERMES_PROVIDER"}, in.file_provider,
                            in.file_name, "provider")) {
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
  const auto url = first_set(in.base_url, "--base-url", url_variables, in.file_base_url,
                             in.file_name, "base_url");
  if (preset == nullptr && !url) {
    return "no API key found: set one of " + required_key_variables() +
           ", or choose a provider with --provider (" + provider_preset_names() +
           ") or a server with --base-url";
  }
  if (preset == nullptr) preset = find_provider_preset("custom");  // A server, no key.

  out.provider = std::string(preset->name);
  out.base_url = url ? url->value : std::string(preset->base_url);
  if (out.base_url.empty()) {
    return "provider " + out.provider +
           " needs a base URL: --base-url, HERMES_BASE_URL or OPENAI_BASE_URL";
  }
  if (url && !has_http_scheme(url->value)) {
    return "base URL '" + url->value + "' (" + url->source +
           ") has no http:// or https:// scheme; write e.g. http://localhost:8080/v1";
  }
  if (auto mode = first_set(in.api_mode, "--api-mode", {"HERMES_API_MODE"}, in.file_api_mode,
                            in.file_name, "api_mode")) {
    if (auto problem = check_api_mode(*mode)) return problem;
    out.api_mode = mode->value;
  } else {
    out.api_mode = std::string(preset->api_mode);
  }
  out.key_variable = std::string(preset->key_variable);
  const char* key = std::getenv(out.key_variable.c_str());
  out.api_key = key != nullptr ? key : "";
  if (out.api_key.empty() && preset->key_required) {
    return "provider " + out.provider + " needs an API key: set " + out.key_variable;
  }
  if (auto model =
          first_set(in.model, "--model", {"HERMES_MODEL"}, in.file_model, in.file_name, "model")) {
    out.model = model->value;
  } else {
    out.model = std::string(preset->default_model);
  }
  if (out.model.empty()) {
    return "provider " + out.provider + " needs a model name: --model or HERMES_MODEL";
  }
  return std::nullopt;
}

std::optional<std::string> apply_provider(const ProviderSources& sources,
                                          hermes::AgentOptions& agent) {
  ProviderChoice choice;
  if (auto problem = choose_provider(sources, choice)) return problem;
  agent.provider.provider = choice.provider;
  agent.provider.base_url = choice.base_url;
  agent.provider.api_mode = choice.api_mode;
  agent.provider.api_key = choice.api_key;
  agent.provider.model = choice.model;
  return std::nullopt;
}

}  // namespace hermes_cli
