// hermes/model_metadata.hpp — how many tokens a model's context window holds.
//
// The window decides when the context engine compresses. It is resolved by a chain of
// sources, the first that answers winning (get_model_context_length says which, in
// order); a built-in table of model families and finally 256,000 tokens come last.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/export.hpp"

namespace hermes {

// The window assumed when nothing else is known.
inline constexpr int64_t kDefaultContextLength = 256'000;

// Windows to try, largest first, when a model's window is unknown and a guess was
// refused; the first is also kDefaultContextLength.
inline constexpr int64_t kContextProbeTiers[] = {256'000, 128'000, 64'000, 32'000, 16'000, 8'000};

// The smallest window an agent can work in. A local server reporting less is believed
// (so the caller can refuse the model) but never written to the cache.
inline constexpr int64_t kMinimumContextLength = 64'000;

// The next tier below `current`, or nullopt when `current` is at or below the last one.
HERMES_API std::optional<int64_t> next_probe_tier(int64_t current);

// Whether `base_url` points at this machine or its network: loopback, unqualified and
// ".local" names, container host names (host.docker.internal, ...), private, link-local
// and Tailscale (100.64.0.0/10) addresses. Such servers are probed as llama.cpp, Ollama,
// LM Studio or vLLM.
HERMES_API bool is_local_endpoint(std::string_view base_url);

// `model` without a "provider:" prefix naming a known provider ("local:my-model" ->
// "my-model", "openrouter:anthropic/claude-sonnet-4" -> "anthropic/claude-sonnet-4").
// Ollama's "model:tag" ids ("qwen3.5:27b", "llama3:latest") and unknown prefixes stay.
HERMES_API std::string strip_provider_prefix(std::string_view model);

// How get_model_context_length may look things up.
struct ContextLengthOptions {
  std::string api_key;  // Sent to endpoint probes that need one; may be empty.
  // The directory holding context_length_cache.json; empty means default_home().
  std::string home;
  // The limit of each probe request (connect and answer). Probes never raise errors: a
  // slow or unreachable endpoint only moves the chain to its next source.
  std::chrono::milliseconds probe_timeout{2'000};
  // False skips the network entirely (cache, table and fallback only).
  bool probe_endpoint = true;
};

// The context window of `model` served at `base_url` by `provider` ("openrouter",
// "ollama", "custom", ...; may be empty). Never fails and never throws. In order:
//  1. a positive `config_override`;
//  2. for an empty model id, kDefaultContextLength (nothing is looked up);
//  3. the id without a "provider:" prefix and, routed through OpenRouter, without a
//     routing variant (":nitro") is what the rest looks up;
//  4. a window confirmed for this exact endpoint (Kimi's coding plan, NVIDIA NIM);
//  5. the cache, unless it holds a non-positive value, a known 32K under-report (Kimi,
//     MiniMax) or a leftover from before the table knew the model; for a local server a
//     live probe that disagrees replaces the cached value. LM Studio and Codex are not
//     cached: their windows change under the same id;
//  6. for an endpoint that is not a well-known provider's host: its /models list, then
//     (local servers) the server's own report, then Ollama's /api/show, then the table,
//     then kDefaultContextLength;
//  7. Anthropic's /v1/models (provider "anthropic" or api.anthropic.com, API keys only);
//  8. OpenRouter's model list (provider or host openrouter), except Kimi's 32K
//     under-report; Ollama's /api/show on ollama.com;
//  9. a local server's own report;
// 10. the built-in table, then kDefaultContextLength.
// Probes run only with a non-empty `base_url` and options.probe_endpoint. What a server
// reported is saved to the cache (a local server's only when at least
// kMinimumContextLength); table and fallback values never are.
//
// Thread-safety: may be called from any thread; the cache file is written atomically
// (write and rename) under a process-wide lock.
HERMES_API int64_t get_model_context_length(std::string_view model, std::string_view base_url,
                                            std::string_view provider = {},
                                            std::optional<int64_t> config_override = std::nullopt,
                                            const ContextLengthOptions& options = {});

// The built-in table alone: the model id lower-cased, matched against the family keys
// as substrings (the longest key wins; dots are also read as dashes on both sides, so
// "claude-opus-4.6" finds "claude-opus-4-6" and "z-ai-glm-5-3" finds "glm-5.3"). A
// "vendor/" prefix is part of the id ("deepseek/deepseek-v4-pro" finds
// "deepseek-v4-pro"). nullopt when no key matches.
HERMES_API std::optional<int64_t> default_context_length(std::string_view model);

// The cached length for model@base_url in `home` (default_home() when empty), if any.
HERMES_API std::optional<int64_t> cached_context_length(std::string_view model,
                                                        std::string_view base_url,
                                                        const std::string& home = {});

// Saves a length a provider reported (for example in a context-overflow error) for
// model@base_url. Non-positive lengths are ignored. Returns false when the file could not
// be written.
HERMES_API bool save_context_length(std::string_view model, std::string_view base_url,
                                    int64_t length, const std::string& home = {});

}  // namespace hermes
