// What a configured base URL says about the server behind it: its parts, the provider a
// well-known host belongs to, and whether it is a local server (where a llama.cpp,
// Ollama, LM Studio or vLLM may answer). Also the two spellings a model id may carry that
// name something other than the model: a "provider:" prefix and an OpenRouter routing
// variant (":nitro").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

struct EndpointUrl {
  bool valid = false;         // False when parse_url (providers/url.hpp) rejects it.
  std::string scheme;         // Lower-cased; "http" when the URL names none.
  std::string host;           // Lower-cased, without IPv6 brackets.
  std::optional<int> port;    // As written; nullopt when absent.
  std::string path;           // As written, without query, fragment or trailing slashes.
  bool has_userinfo = false;  // user[:password]@ before the host.
  bool has_query_or_fragment = false;
};

// `base_url` read by parse_url, with "http" for a URL that names no scheme.
EndpointUrl parse_endpoint_url(std::string_view base_url);

// The provider whose well-known host `base_url` points at ("openai", "anthropic",
// "openrouter", ...), or nullopt for any other host (a custom or local endpoint).
std::optional<std::string> provider_for_base_url(std::string_view base_url);

// `model` without an OpenRouter routing variant (":nitro", ":floor", ":exacto",
// ":online"), which shares its base model's window. Other suffixes (":free", ":thinking")
// are models of their own and stay.
std::string without_openrouter_variant(std::string_view model);

}  // namespace hermes::internal
