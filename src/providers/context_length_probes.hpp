// Asking a model server how large a model's context window is: its /models list
// (OpenRouter's context_length, vLLM's max_model_len, ...), llama.cpp's /props, Ollama's
// /api/show and Anthropic's /v1/models. Every probe has a short timeout and none throws:
// an answer that cannot be had is nullopt.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "hermes/json.hpp"

namespace hermes::internal {

struct ContextProbe {
  std::string model;
  std::string base_url;
  std::string provider;
  std::string api_key;
  std::chrono::milliseconds timeout{2'000};
};

// The window the endpoint reports for the model, trying the probes that fit the
// endpoint in turn.
std::optional<int64_t> probe_context_length(const ContextProbe& probe);

// The window a model object states, under the first key of the list servers use
// (context_length, context_window, ..., max_model_len, ..., n_ctx), top level first, then
// in nested objects; max_tokens only as a last resort, since it is usually the output
// cap. A runtime n_ctx (llama.cpp) wins over the training maximum n_ctx_train.
std::optional<int64_t> context_length_of_model(const Json& model);

// The entry of a /models list for `model`: the same id, an id whose last path segment is
// the model ("publisher/slug"), the id without a routing suffix (":nitro"), the only
// entry of a one-model server, or an id containing the model or contained in it.
const Json* find_listed_model(const Json& list, const std::string& model);

// Ollama's /api/show answer: the num_ctx in its parameters (the window it allocates),
// else the GGUF maximum "<architecture>.context_length" in model_info.
std::optional<int64_t> ollama_context_length(const Json& show);

}  // namespace hermes::internal
