// What an Anthropic Messages endpoint accepts, decided from its base URL, the key and the
// model: how to authenticate, which beta features to ask for, how to replay thinking
// blocks, and whether prompt-cache breakpoints are worth placing.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// How the thinking blocks of earlier turns are replayed.
enum class ThinkingReplay {
  kNative,      // Anthropic: signed blocks verbatim; older models keep the latest turn's only.
  kThirdParty,  // Signatures are Anthropic's own: other endpoints reject them, so strip all.
  kKimi,        // Kimi / Moonshot: replay as they are, and an unsigned block is required.
  kDeepSeek,    // DeepSeek: unsigned blocks round-trip, signed ones are rejected.
};

struct AnthropicDialect {
  bool bearer_auth = false;  // Authorization: Bearer instead of x-api-key.
  bool oauth = false;        // An Anthropic OAuth token: Bearer plus the OAuth betas.
  std::string betas;         // The anthropic-beta header value; "" for none.
  ThinkingReplay replay = ThinkingReplay::kNative;
  bool prompt_caching = false;  // cache_control on the system prompt and the last 3 messages.
};

// `base_url` as configured (a trailing /v1 is allowed), `api_key` the key in use.
AnthropicDialect anthropic_dialect_for(std::string_view base_url, std::string_view api_key,
                                       std::string_view model);

// Whether `model` keeps earlier turns' thinking in context (Opus 4.5+, Sonnet 4.6+):
// older models are sent the latest assistant turn's thinking only.
bool model_preserves_prior_thinking(std::string_view model);

}  // namespace hermes::internal
