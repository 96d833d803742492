// The JSON body of an Anthropic Messages request, built from a ProviderRequest: the
// converted conversation, tools with input_schema, the required max_tokens, and thinking
// parameters from the reasoning effort.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "hermes/status.hpp"
#include "providers/anthropic_dialect.hpp"

namespace hermes::internal {

// The model id Anthropic expects: an "anthropic/" prefix stripped and, for Claude ids,
// version dots as dashes ("claude-opus-4.6" -> "claude-opus-4-6"). Bedrock ids
// ("anthropic.claude-...", "us.anthropic...") keep their dots.
std::string normalize_anthropic_model(std::string_view model);

// The output ceiling sent as max_tokens when the request names none.
int64_t anthropic_max_output_tokens(std::string_view model);

// The request body, for request.model or, when that is empty, `default_model`.
// InvalidArgument names the field that cannot be encoded.
Result<Json> build_anthropic_request(const ProviderRequest& request,
                                     const AnthropicDialect& dialect,
                                     std::string_view default_model = {});

// The same body as build_anthropic_request's, as dump_json writes it, with each converted
// message's bytes taken from request.encoding_cache when it holds them (and stored there
// when it does not).
Result<std::string> encode_anthropic_request(const ProviderRequest& request,
                                             const AnthropicDialect& dialect,
                                             std::string_view default_model = {});

}  // namespace hermes::internal
