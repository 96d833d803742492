// A finished Responses API answer (a `response` object) turned into the assistant
// message, finish reason and usage, for streamed and whole answers alike.
#pragma once

#include <string>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// Reads `response` (the body of a whole answer, or the `response` of a terminal stream
// event). Its `output` is the source of truth when it is non-empty; otherwise `streamed`
// (the items a stream delivered one by one) stands in, because the Codex backend has
// answered completed streams with an empty output. Reasoning items are stamped with
// `issuer`. A failed or cancelled response, and one with nothing in it, give kApiError.
Result<ProviderResponse> read_responses_answer(const Json& response, const Json& streamed,
                                               const std::string& issuer);

// The usage object of a response (input includes cached tokens, output includes
// reasoning). Not reported when `usage` is not an object.
Usage read_responses_usage(const Json& usage);

// The ApiError for a failed response or an in-stream error payload ({"code", "message"},
// either flat or under "error").
ApiError responses_error(const Json& error, const std::string& fallback_message);

}  // namespace hermes::internal
