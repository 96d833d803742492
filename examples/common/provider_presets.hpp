// The model services the CLI knows by name: for each, where it is, which wire format it
// speaks and which environment variable holds its key. `--provider NAME` picks one;
// without a name the first key found in the environment does (see settings.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes_cli {

struct ProviderPreset {
  std::string_view name;           // What --provider and HERMES_PROVIDER take.
  std::string_view label;          // For the help text, e.g. "Anthropic".
  std::string_view base_url;       // Empty: the user must give one (custom).
  std::string_view api_mode;       // Empty: resolved from the base URL by the library.
  std::string_view key_variable;   // The environment variable holding the API key.
  std::string_view default_model;  // When neither --model, HERMES_MODEL nor the file says.
  bool key_required = true;        // Local servers usually run without a key.
};

// Every preset, in the order a missing key is looked for (openai first: it was once the
// only provider, and a user with several keys keeps what they had).
const std::vector<ProviderPreset>& provider_presets();

// The preset called `name` (case-insensitive, trimmed), or nullptr.
const ProviderPreset* find_provider_preset(std::string_view name);

// "openai, anthropic, ..." for messages.
std::string provider_preset_names();

// The first preset whose key variable is set and not empty, in provider_presets() order
// (local servers, whose key is optional, are never picked this way); nullptr if none.
const ProviderPreset* preset_from_environment();

// "OPENAI_API_KEY, ANTHROPIC_API_KEY, ..." of the presets that need a key.
std::string required_key_variables();

// The help text's table of presets, one line each.
std::string provider_presets_help();

}  // namespace hermes_cli
