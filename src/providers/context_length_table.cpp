// The built-in context windows of model families, the last source before the fallback.
// Entries change between releases; what must hold is the matching rule (see
// default_context_length in hermes/model_metadata.hpp).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "common/text_utils.hpp"
#include "hermes/model_metadata.hpp"

namespace hermes {
namespace {

// Keys match as substrings and the longest matching key wins, so a specific key must be
// strictly longer than its family's catch-all ("gpt-4.1" beats "gpt-4").
constexpr std::pair<std::string_view, int64_t> kDefaultContextLengths[] = {
    {"claude-opus-4-6", 1'000'000},
    {"claude", 200'000},
    {"gpt-5.5", 1'050'000},
    {"gpt-5.4", 1'050'000},
    {"gpt-5.4-mini", 400'000},
    {"gpt-5.3-codex-spark", 128'000},
    {"gpt-5", 400'000},
    {"gpt-4.1", 1'047'576},
    {"gpt-4", 128'000},
    {"gemini", 1'048'576},
    {"gemma-4", 256'000},
    {"gemma-3", 131'072},
    {"gemma", 8'192},
    {"deepseek-v4-pro", 1'000'000},
    {"deepseek-chat", 1'000'000},
    {"deepseek", 128'000},
    {"llama", 131'072},
    {"qwen3-coder", 262'144},
    {"qwen3-max", 262'144},
    {"qwen", 131'072},
    {"minimax-m3", 1'000'000},
    {"minimax", 204'800},
    {"glm-5.2", 1'048'576},
    {"glm-5", 204'800},
    {"glm-4.6v", 131'072},
    {"glm", 202'752},
    {"grok-4-fast", 2'000'000},
    {"grok-4", 256'000},
    {"grok-3", 131'072},
    {"grok-2-vision", 8'192},
    {"grok", 131'072},
    {"kimi-k3", 1'048'576},
    {"kimi", 262'144},
    {"nemotron", 131'072},
    {"solar-mini", 32'768},
    {"mimo-v2-pro", 1'048'576},
    {"hy3", 262'144},
};

// The longest key found in `name`, with its length; 0 when none.
std::pair<std::size_t, int64_t> longest_match(std::string_view name) {
  std::pair<std::size_t, int64_t> best{0, 0};
  for (const auto& [key, tokens] : kDefaultContextLengths) {
    if (key.size() > best.first && name.find(key) != std::string_view::npos) {
      best = {key.size(), tokens};
    }
  }
  return best;
}

}  // namespace

std::optional<int64_t> default_context_length(std::string_view model) {
  std::string name = internal::lower_ascii(internal::trim_ascii(model));
  if (const std::size_t slash = name.rfind('/'); slash != std::string::npos) {
    name.erase(0, slash + 1);
  }
  auto best = longest_match(name);
  std::string dashed = name;
  std::replace(dashed.begin(), dashed.end(), '.', '-');
  if (dashed != name) {
    const auto with_dashes = longest_match(dashed);
    if (with_dashes.first > best.first) best = with_dashes;
  }
  if (best.first == 0) return std::nullopt;
  return best.second;
}

}  // namespace hermes
