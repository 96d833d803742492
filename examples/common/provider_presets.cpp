#include "provider_presets.hpp"

#include <cctype>
#include <cstdlib>

namespace hermes_cli {
namespace {

std::string normalized(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
    name.remove_prefix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
    name.remove_suffix(1);
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_set(std::string_view variable) {
  const char* value = std::getenv(std::string(variable).c_str());
  return value != nullptr && *value != '\0';
}

}  // namespace

const std::vector<ProviderPreset>& provider_presets() {
  // OpenAI's own API resolves to the Responses API (the library's choice for
  // api.openai.com); every other OpenAI-compatible server speaks Chat Completions.
  static const std::vector<ProviderPreset> presets = {
      {"openai", "OpenAI", "https://api.openai.com/v1", "", "OPENAI_API_KEY", "gpt-4.1-mini", true},
      {"anthropic", "Anthropic", "https://api.anthropic.com", "anthropic_messages",
       "ANTHROPIC_API_KEY", "claude-sonnet-4-5", true},
      {"openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "chat_completions",
       "OPENROUTER_API_KEY", "anthropic/claude-sonnet-4.5", true},
      {"nous", "Nous Portal", "https://inference-api.nousresearch.com/v1", "chat_completions",
       "NOUS_API_KEY", "Hermes-4-70B", true},
      {"ollama", "Ollama", "http://localhost:11434/v1", "chat_completions", "OLLAMA_API_KEY",
       "llama3.2", false},
      // vLLM serves the model it was started with, under its own name: no default.
      {"vllm", "vLLM", "http://localhost:8000/v1", "chat_completions", "VLLM_API_KEY", "", false},
      // llama.cpp's server answers with its one model whatever the request names.
      {"llamacpp", "llama.cpp server", "http://localhost:8080/v1", "chat_completions",
       "LLAMA_API_KEY", "default", false},
      {"custom", "any OpenAI-compatible server", "", "", "OPENAI_API_KEY", "", false},
  };
  return presets;
}

const ProviderPreset* find_provider_preset(std::string_view name) {
  const std::string wanted = normalized(name);
  for (const ProviderPreset& preset : provider_presets()) {
    if (preset.name == wanted) return &preset;
  }
  return nullptr;
}

std::string provider_preset_names() {
  std::string out;
  for (const ProviderPreset& preset : provider_presets()) {
    if (!out.empty()) out += ", ";
    out += preset.name;
  }
  return out;
}

const ProviderPreset* preset_from_environment() {
  for (const ProviderPreset& preset : provider_presets()) {
    if (preset.key_required && is_set(preset.key_variable)) return &preset;
  }
  return nullptr;
}

std::string required_key_variables() {
  std::string out;
  for (const ProviderPreset& preset : provider_presets()) {
    if (!preset.key_required) continue;
    if (!out.empty()) out += ", ";
    out += preset.key_variable;
  }
  return out;
}

std::string provider_presets_help() {
  std::string out;
  for (const ProviderPreset& preset : provider_presets()) {
    std::string line = "  " + std::string(preset.name);
    line.resize(15, ' ');
    line += std::string(preset.key_variable) + (preset.key_required ? "" : " (optional)");
    line.resize(43, ' ');
    line += preset.base_url.empty() ? std::string("--base-url or OPENAI_BASE_URL")
                                    : std::string(preset.base_url);
    out += line + "\n";
  }
  return out;
}

}  // namespace hermes_cli
