// The built-in context windows of model families, the last source before the fallback.
// Entries change between releases; what must hold is the matching rule (see
// default_context_length in hermes/model_metadata.hpp).
#include "providers/context_length_table.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "common/text_utils.hpp"
#include "hermes/model_metadata.hpp"
#include "providers/endpoint_url.hpp"

namespace hermes {
namespace {

struct TableEntry {
  std::string_view key;
  int64_t tokens;
};

// Keys match as substrings and the longest matching key wins, so a specific key must be
// strictly longer than its family's catch-all ("gpt-4.1" beats "gpt-4"). Equal lengths
// keep this order. Anthropic keys are bare ids: a prefixed "anthropic/claude-sonnet-4"
// key would also be found inside "anthropic/claude-sonnet-4.6".
constexpr TableEntry kDefaultContextLengths[] = {
    // Anthropic.
    {"claude-fable-5", 1'000'000},
    {"claude-fable", 1'000'000},
    {"claude-opus-5", 1'000'000},
    {"claude-sonnet-5", 1'000'000},
    {"claude-opus-4-8", 1'000'000},
    {"claude-opus-4.8", 1'000'000},
    {"claude-opus-4-7", 1'000'000},
    {"claude-opus-4.7", 1'000'000},
    {"claude-opus-4-6", 1'000'000},
    {"claude-sonnet-4-6", 1'000'000},
    {"claude-opus-4.6", 1'000'000},
    {"claude-sonnet-4.6", 1'000'000},
    {"claude", 200'000},
    // OpenAI, as the direct API serves them.
    {"gpt-6-astra", 1'050'000},
    {"gpt-5.6-luna", 1'050'000},
    {"gpt-5.6-terra", 1'050'000},
    {"gpt-5.6-sol", 1'050'000},
    {"gpt-5.5", 1'050'000},
    {"gpt-5.4-nano", 400'000},
    {"gpt-5.4-mini", 400'000},
    {"gpt-5.4", 1'050'000},
    {"gpt-5.3-codex-spark", 128'000},
    {"gpt-5.1-chat", 128'000},
    {"gpt-5", 400'000},
    {"gpt-4.1", 1'047'576},
    {"gpt-4", 128'000},
    // Google. "gemma4" is Ollama's spelling ("gemma4:31b-cloud").
    {"gemini", 1'048'576},
    {"gemma-4", 256'000},
    {"gemma4", 256'000},
    {"gemma-4-31b", 256'000},
    {"gemma-3", 131'072},
    {"gemma", 8'192},
    // DeepSeek: the V4 family and the aliases of its modes hold 1M.
    {"deepseek-v4-pro", 1'000'000},
    {"deepseek-v4.1-flash", 1'000'000},
    {"deepseek-v4-flash", 1'000'000},
    {"deepseek-chat", 1'000'000},
    {"deepseek-reasoner", 1'000'000},
    {"deepseek-flash", 1'000'000},
    {"deepseek", 128'000},
    // Meta, Thinking Machines. "muse-spark", not "muse": muse-image is another model.
    {"llama", 131'072},
    {"muse-spark-1.3", 1'048'576},
    {"muse-spark", 1'048'576},
    {"inkling", 1'048'576},
    // Qwen.
    {"qwen3.8-max", 1'000'000},
    {"qwen3.8-flash", 1'000'000},
    {"qwen3.6-plus", 1'048'576},
    {"qwen3.7-plus", 1'048'576},
    {"qwen3-coder-plus", 1'000'000},
    {"qwen3-coder", 262'144},
    {"qwen3-max", 262'144},
    {"qwen", 131'072},
    // MiniMax.
    {"minimax-m3", 1'000'000},
    {"minimax", 204'800},
    // GLM. The OpenRouter ":free" variant of 5.2 is capped; the longer key wins.
    {"glm-5.3", 1'310'720},
    {"glm-5.3-flash", 1'310'720},
    {"glm-5.3:batch", 1'048'576},
    {"glm-5.3:us", 1'048'576},
    {"glm-5.3-flash:batch", 1'048'576},
    {"glm-5.3-flash:us", 1'048'576},
    {"glm-5.2", 1'048'576},
    {"glm-5.2:free", 256'000},
    {"glm-5.1", 204'800},
    {"glm-5-turbo", 202'752},
    {"glm-5v-turbo", 202'752},
    {"glm-5", 204'800},
    {"glm-4.7-flash", 202'752},
    {"glm-4.7", 204'800},
    {"glm-4.6v", 131'072},
    {"glm-4.6", 204'800},
    {"glm", 202'752},
    // xAI: its /v1/models states no window.
    {"grok-composer", 200'000},
    {"grok-build-latest", 500'000},
    {"grok-build", 256'000},
    {"grok-code-fast", 256'000},
    {"grok-2-vision", 8'192},
    {"grok-4-fast", 2'000'000},
    {"grok-4.20", 2'000'000},
    {"grok-4.6", 500'000},
    {"grok-4.5", 500'000},
    {"grok-4.3", 1'000'000},
    {"grok-4", 256'000},
    {"grok-3", 131'072},
    {"grok-2", 131'072},
    {"grok", 131'072},
    // Moonshot.
    {"kimi-k3", 1'048'576},
    {"kimi", 262'144},
    // Upstage Solar: its /v1/models states no window.
    {"solar-open2", 262'144},
    {"solar-pro3", 131'072},
    {"solar-pro2", 65'536},
    {"solar-mini", 32'768},
    // Tencent Hunyuan.
    {"hy4-preview", 1'048'576},
    {"hy3-preview", 262'144},
    {"hy3", 262'144},
    // Stealth models, NVIDIA Nemotron, Poolside Laguna, Arcee.
    {"x-preview-f", 1'048'576},
    {"ox-alpha", 1'048'576},
    {"nemotron-3.5-lightning", 1'000'000},
    {"nemotron", 131'072},
    {"laguna-s-2.1", 262'144},
    {"laguna-xs-2.1", 262'144},
    {"trinity", 262'144},
    {"elephant", 262'144},
    // Xiaomi MiMo.
    {"mimo-v2-pro", 1'048'576},
    {"mimo-v2.5-pro", 1'048'576},
    {"mimo-v2.5", 1'048'576},
    {"mimo-v2-omni", 262'144},
    {"mimo-v2-flash", 262'144},
};

// Keys added after their models were already reachable through a shorter catch-all (or
// the fallback): older caches hold that smaller value, which must not pin the model.
constexpr std::string_view kPreCatalogStaleKeys[] = {
    "minimax-m3",     "muse-spark-1.3",      "muse-spark",        "grok-4.3",
    "grok-4.6",       "grok-4-fast",         "grok-4.20",         "qwen3.6-plus",
    "deepseek-flash", "deepseek-v4.1-flash", "deepseek-v4-flash", "deepseek-v4-pro",
    "deepseek-chat",  "deepseek-reasoner",
};

std::string dashed(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '.', '-');
  return out;
}

// A key matches when it is in the id, or when it is with dots read as dashes on both
// sides ("claude-opus-4.6" and a relay's "z-ai-glm-5-3").
bool key_matches(std::string_view key, std::string_view name, std::string_view name_dashed) {
  return name.find(key) != std::string_view::npos ||
         name_dashed.find(dashed(key)) != std::string_view::npos;
}

// The longest matching entry; nullptr when none.
const TableEntry* longest_match(std::string_view name) {
  const std::string name_dashed = dashed(name);
  const TableEntry* best = nullptr;
  for (const TableEntry& entry : kDefaultContextLengths) {
    if ((!best || entry.key.size() > best->key.size()) &&
        key_matches(entry.key, name, name_dashed)) {
      best = &entry;
    }
  }
  return best;
}

// Windows confirmed for one provider endpoint only (a canonical https URL, no port other
// than 443, no credentials, query or fragment).
struct ScopedWindow {
  std::string_view host;
  std::string_view paths[2];
  std::string_view models[3];
  int64_t tokens;
};
constexpr ScopedWindow kEndpointScoped[] = {
    // Kimi's coding plan serves K3 at 1 Mi under its bare "k3" id only there.
    {"api.kimi.com", {"/coding", "/coding/v1"}, {"k3", "kimi-k3", "kimi-k3-cot"}, 1'048'576},
    // NVIDIA NIM serves deepseek-v4-pro at a quarter of DeepSeek's own window.
    {"integrate.api.nvidia.com", {"/v1", ""}, {"deepseek-ai/deepseek-v4-pro", "", ""}, 262'144},
};

}  // namespace

std::optional<int64_t> default_context_length(std::string_view model) {
  const std::string name = internal::lower_ascii(internal::trim_ascii(model));
  if (name.empty()) return std::nullopt;
  const TableEntry* best = longest_match(name);
  if (!best) return std::nullopt;
  return best->tokens;
}

namespace internal {

bool stale_pre_catalog_entry(std::string_view model, int64_t cached) {
  const std::string name = lower_ascii(trim_ascii(model));
  const TableEntry* specific = longest_match(name);
  if (!specific || !list_contains(kPreCatalogStaleKeys, specific->key) ||
      cached >= specific->tokens) {
    return false;
  }
  // The value is stale when no larger than what a shorter key (or the fallback) gave.
  const std::string name_dashed = dashed(name);
  int64_t shorter = 0;
  bool any_shorter = false;
  for (const TableEntry& entry : kDefaultContextLengths) {
    if (entry.key.size() < specific->key.size() && key_matches(entry.key, name, name_dashed)) {
      shorter = any_shorter ? std::max(shorter, entry.tokens) : entry.tokens;
      any_shorter = true;
    }
  }
  return cached <= (any_shorter ? shorter : kDefaultContextLength);
}

std::optional<int64_t> endpoint_scoped_context_length(std::string_view model,
                                                      std::string_view base_url) {
  const EndpointUrl url = parse_endpoint_url(base_url);
  if (!url.valid || url.scheme != "https" || (url.port && *url.port != 443) || url.has_userinfo ||
      url.has_query_or_fragment) {
    return std::nullopt;
  }
  const std::string id = lower_ascii(trim_ascii(model));
  for (const ScopedWindow& scoped : kEndpointScoped) {
    if (url.host != scoped.host) continue;
    const bool path_ok =
        std::any_of(std::begin(scoped.paths), std::end(scoped.paths),
                    [&](std::string_view p) { return !p.empty() && p == url.path; });
    const bool model_ok = std::any_of(std::begin(scoped.models), std::end(scoped.models),
                                      [&](std::string_view m) { return !m.empty() && m == id; });
    if (path_ok && model_ok) return scoped.tokens;
  }
  return std::nullopt;
}

}  // namespace internal
}  // namespace hermes
