// The JSON body of a Responses API request (codex_responses mode), built from a
// ProviderRequest: the system prompt becomes `instructions`, the history becomes `input`
// items, and the reasoning items of earlier turns are replayed with their encrypted
// content so the model keeps its chain of thought across tool calls (store is false: the
// server keeps nothing between requests).
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// How one Responses endpoint wants its requests. Derived from the provider name and the
// base URL.
struct ResponsesDialect {
  // The ChatGPT subscription backend: rejects max_output_tokens and only streams.
  bool codex_backend = false;
  // xAI: reasoning effort only when asked for.
  bool xai = false;
  // GitHub Copilot binds message item ids to one backend connection: never replay them.
  bool github = false;
  // Azure rejects encrypted reasoning replayed from more than one earlier response.
  bool azure = false;
  // Who mints this endpoint's encrypted_content: a blob sealed by another endpoint is
  // rejected (400 invalid_encrypted_content), so replay skips items stamped otherwise.
  std::string issuer;
};

ResponsesDialect responses_dialect_for(std::string_view provider, std::string_view base_url);

// The key under which assembled reasoning items record their issuer. Never sent.
inline constexpr const char* kIssuerKey = "_issuer_kind";

// The request body, for request.model or, when that is empty, `default_model`.
// InvalidArgument names the field that cannot be encoded.
Result<Json> build_responses_request(const ProviderRequest& request,
                                     const ResponsesDialect& dialect,
                                     std::string_view default_model = {});

// The same body as text (dump_json of build_responses_request, byte for byte), written
// with the request's encoding cache: the items of messages it holds are copied, the
// others converted and stored in it.
Result<std::string> encode_responses_request(const ProviderRequest& request,
                                             const ResponsesDialect& dialect,
                                             std::string_view default_model = {});

// A call id the Responses API accepts (at most 64 characters). Longer ids are replaced by
// a digest of themselves, so a call and its output stay paired.
std::string clamp_call_id(std::string_view call_id);

}  // namespace hermes::internal
