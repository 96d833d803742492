// Asking a model server how large a model's context window is: its /models list
// (OpenRouter's context_length, vLLM's max_model_len, ...), llama.cpp's /props, Ollama's
// /api/show, LM Studio's native model list and Anthropic's /v1/models. Every probe has a
// short timeout and none throws: an answer that cannot be had is nullopt.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hermes/json.hpp"

namespace hermes::internal {

struct ContextProbe {
  std::string model;
  std::string base_url;
  std::string provider;
  std::string api_key;
  std::chrono::milliseconds timeout{2'000};
};

// GET and POST for metadata: the JSON body of a 200 answer, else nullopt (`status` gets
// the HTTP status, 0 when nothing answered).
class MetadataFetcher {
 public:
  explicit MetadataFetcher(const ContextProbe& probe) : probe_(probe) {}

  std::optional<Json> get(const std::string& url, int* status = nullptr) const;
  std::optional<Json> get_with(const std::string& url, std::vector<std::string> headers,
                               int* status = nullptr) const;
  std::optional<Json> post(const std::string& url, std::string body) const;
  // The text of a 200 answer, for probes that look at the raw body.
  std::optional<std::string> get_text(const std::string& url, int* status = nullptr) const;

 private:
  // The body of a 200 answer to a GET with `headers` (and Accept: application/json).
  std::optional<std::string> get_body(const std::string& url, std::vector<std::string> headers,
                                      int* status) const;
  std::vector<std::string> bearer() const;
  const ContextProbe& probe_;
};

// The window in the endpoint's /models list (at the base URL, then with /v1 toggled; a
// local LM Studio's native list), with llama.cpp's running n_ctx from /props replacing
// its training maximum. `refused` is set when the server turned the key away.
std::optional<int64_t> listed_context_length(const ContextProbe& probe, bool& refused);

// What a local server says about the model's window: the server's kind is found first
// (LM Studio, Ollama, llama.cpp, vLLM, in that order), its own report asked, then the
// OpenAI-compatible /v1/models/<model> and /v1/models.
std::optional<int64_t> local_context_length(const ContextProbe& probe);

// Ollama's POST /api/show for the model. `gguf_first`: the model's trained maximum before
// the num_ctx the server was configured with (a hosted server's num_ctx may be an
// arbitrary cap; a local one is what it allocates). Values below `minimum` are skipped.
std::optional<int64_t> ollama_show_context_length(const ContextProbe& probe, bool gguf_first,
                                                  int64_t minimum = 1);

// Anthropic's /v1/models max_input_tokens (API keys only; OAuth tokens are refused).
std::optional<int64_t> anthropic_context_length(const ContextProbe& probe);

// The window a model object states, under the first key of the list servers use
// (context_length, context_window, ..., max_model_len, ..., n_ctx), top level first, then
// in nested objects; max_tokens only as a last resort, since it is usually the output
// cap. A runtime n_ctx (llama.cpp) wins over the training maximum n_ctx_train.
std::optional<int64_t> context_length_of_model(const Json& model);

// The entry of a /models list for `model`: the same id, an id whose part after its first
// "/" is the model ("publisher/slug"), the only entry of a one-model server, or an id
// containing the model or contained in it.
const Json* find_listed_model(const Json& list, const std::string& model);

// Ollama's /api/show answer: the num_ctx in its parameters (the window it allocates),
// else the GGUF maximum "<architecture>.context_length" in model_info; with `gguf_first`
// the other way round. Values below `minimum` do not count.
std::optional<int64_t> ollama_context_length(const Json& show, bool gguf_first = false,
                                             int64_t minimum = 1);

// The server root: `base_url` without trailing slashes and without a final /v1.
std::string server_root(std::string_view base_url);
// LM Studio's root: `base_url` without a final /api/v1, /api or /v1.
std::string lm_studio_root(std::string_view base_url);

// `object[key]` when `object` is an object holding it, else null: servers send any shape.
Json member_value(const Json& object, std::string_view key);
// The same for a string member, else "".
std::string string_member(const Json& object, std::string_view key);

// A positive integer (or integral string) value, else nullopt.
std::optional<int64_t> positive_value(const Json& value);
std::optional<int64_t> positive_member(const Json& object, std::string_view key);

}  // namespace hermes::internal
