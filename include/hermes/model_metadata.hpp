// hermes/model_metadata.hpp — how many tokens a model's context window holds.
//
// The window decides when the context engine compresses. It is resolved by a chain of
// sources, the first that answers winning: an explicit override; a persistent cache of
// lengths servers reported before (keyed model@base_url); the endpoint itself (its
// /models list, llama.cpp's /props, Ollama's /api/show, Anthropic's /v1/models); a
// built-in table of model families; and finally 256,000 tokens.
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
// "ollama", "custom", ...; informative, may be empty). A positive `config_override` wins
// outright. A length an endpoint reported is saved to the cache file; table and
// fallback values never are. Never fails and never throws.
//
// Thread-safety: may be called from any thread; the cache file is written atomically
// (write and rename) under a process-wide lock.
HERMES_API int64_t get_model_context_length(std::string_view model, std::string_view base_url,
                                            std::string_view provider = {},
                                            std::optional<int64_t> config_override = std::nullopt,
                                            const ContextLengthOptions& options = {});

// The built-in table alone: the model id lower-cased and stripped of any "vendor/"
// prefix, matched against the family keys as substrings (longest key wins, and dots are
// also tried as dashes so "claude-opus-4.6" finds "claude-opus-4-6"). nullopt when no key
// matches.
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
