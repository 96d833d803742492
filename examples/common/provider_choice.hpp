// How the command-line programs (hermes, hermes-batch, hermes-jobs) pick their model
// service: the provider, where it is, its wire format, its key and the model, each from
// an option, then the environment, then a config file, with a message naming what to set
// when something is missing or wrong.
#pragma once

#include <optional>
#include <string>

#include "hermes/agent.hpp"

namespace hermes_cli {

// What the user gave as options and in a config file; unset: not given there.
struct ProviderSources {
  std::optional<std::string> provider;  // --provider
  std::optional<std::string> base_url;  // --base-url
  std::optional<std::string> api_mode;  // --api-mode
  std::optional<std::string> model;     // --model
  std::optional<std::string> file_provider;
  std::optional<std::string> file_base_url;
  std::optional<std::string> file_api_mode;
  std::optional<std::string> file_model;
  std::string file_name = "config.json";  // How messages name the file.
};

// The service chosen.
struct ProviderChoice {
  std::string provider;  // A preset's name (provider_presets.hpp).
  std::string base_url;
  std::string api_mode;  // Empty: resolved from base_url by the library.
  std::string api_key;
  std::string key_variable;  // Where the key was read from.
  std::string model;
};

// Chooses the service. The provider is the option, HERMES_PROVIDER or the file's; without
// one, the first preset whose key variable is set, else "custom" when a base URL is given.
// The base URL is the option, HERMES_BASE_URL (OPENAI_BASE_URL too for openai and
// custom), the file's, else the preset's; the wire format the option, HERMES_API_MODE,
// the file's, else the preset's; the model the option, HERMES_MODEL, the file's, else the
// preset's default. Returns what stops a model from being called (unknown provider or api
// mode, a URL without a scheme, a missing key or model), naming what to set; `choice` is
// filled as far as it got.
std::optional<std::string> choose_provider(const ProviderSources& sources, ProviderChoice& choice);

// choose_provider, then the choice set on `agent` (provider, base URL, wire format, key
// and model); `agent` is left as it was when something is missing or wrong.
std::optional<std::string> apply_provider(const ProviderSources& sources,
                                          hermes::AgentOptions& agent);

}  // namespace hermes_cli
