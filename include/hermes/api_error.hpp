// hermes/api_error.hpp — a failed model call, and the classification that decides what
// the agent does about it: retry, rotate the key, compress the context, fall back to
// another provider, or stop with a clear reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hermes/export.hpp"
#include "hermes/json.hpp"

namespace hermes {

// Why a provider call failed. The names (failover_reason_name) are the upstream runtime's.
enum class FailoverReason {
  kAuth,                              // "auth"
  kAuthPermanent,                     // "auth_permanent"
  kBilling,                           // "billing"
  kRateLimit,                         // "rate_limit"
  kUpstreamRateLimit,                 // "upstream_rate_limit"
  kOverloaded,                        // "overloaded"
  kServerError,                       // "server_error"
  kTimeout,                           // "timeout"
  kSslCertVerification,               // "ssl_cert_verification"
  kContextOverflow,                   // "context_overflow"
  kPayloadTooLarge,                   // "payload_too_large"
  kImageTooLarge,                     // "image_too_large"
  kImageCorrupt,                      // "image_corrupt": image bytes the provider cannot decode
  kModelNotFound,                     // "model_not_found"
  kProviderPolicyBlocked,             // "provider_policy_blocked"
  kContentPolicyBlocked,              // "content_policy_blocked"
  kFormatError,                       // "format_error"
  kInvalidEncryptedContent,           // "invalid_encrypted_content"
  kMultimodalToolContentUnsupported,  // "multimodal_tool_content_unsupported"
  kReasoningMandatory,                // "reasoning_mandatory": the route refuses reasoning off
  kThinkingSignature,                 // "thinking_signature"
  kLongContextTier,                   // "long_context_tier"
  kOauthLongContextBetaForbidden,     // "oauth_long_context_beta_forbidden"
  kLlamaCppGrammarPattern,            // "llama_cpp_grammar_pattern"
  kUnknown,                           // "unknown"
};

HERMES_API std::string_view failover_reason_name(FailoverReason reason);
// Parses a name produced by failover_reason_name; nullopt for anything else.
HERMES_API std::optional<FailoverReason> parse_failover_reason(std::string_view name);

// How the request failed below HTTP, if it did.
enum class TransportFailure {
  kNone,        // An HTTP response arrived (see http_status) or the payload was bad.
  kTimeout,     // Connect, first-byte, idle or total timeout.
  kConnect,     // Connection refused, DNS failure, unreachable host.
  kSsl,         // TLS handshake or record failure.
  kDisconnect,  // The connection closed early: reset, or a stream cut before its end.
};

HERMES_API std::string_view transport_failure_name(TransportFailure failure);  // "", "timeout", ...
// Parses a name produced by transport_failure_name ("none" is also kNone); nullopt for
// anything else.
HERMES_API std::optional<TransportFailure> parse_transport_failure(std::string_view name);

// One failed provider call: what happened, plus the recovery hints the classifier set.
struct HERMES_API ApiError {
  // What happened.
  int http_status = 0;     // 0 when no HTTP status applies.
  std::string message;     // The provider's error message, or a description.
  std::string body;        // The response body (truncated), when there was one.
  std::string error_code;  // error.code / error.type from the body, when present.
  TransportFailure transport = TransportFailure::kNone;
  std::optional<double> retry_after_seconds;  // From Retry-After / retry-after-ms.
  std::string provider;
  std::string model;
  std::string request_id;  // x-request-id / request-id, for support tickets.

  // What to do about it (set by classify_api_error).
  FailoverReason reason = FailoverReason::kUnknown;
  bool retryable = true;
  bool should_compress = false;
  bool should_rotate_credential = false;
  bool should_fallback = false;

  // Details of the verdict, as upstream's error_context: "upstream_provider" (the provider
  // behind an aggregator that limited the call), "billing_unverified" and
  // "possible_content_filter" (a billing verdict whose wording is also sent for content
  // filter rejections), and "reasoning_required" (a reasoning_mandatory refusal that says
  // reasoning cannot be off: a retry sends the lowest level rather than none). An empty
  // object when there is nothing to add.
  Json error_context = Json::object();

  bool is_auth() const {
    return reason == FailoverReason::kAuth || reason == FailoverReason::kAuthPermanent;
  }
  // A billing verdict that rests on ambiguous wording: say so rather than assert the
  // account is empty, and bench the key only briefly.
  bool billing_unverified() const {
    const auto it = error_context.find("billing_unverified");
    return error_context.is_object() && it != error_context.end() && it->is_boolean() &&
           it->get<bool>();
  }
  // "HTTP 429 rate_limit: <message>" and the like, for logs and user-visible errors.
  std::string to_string() const;
};

// The facts classify_api_error looks at.
struct ApiErrorFacts {
  int http_status = 0;
  std::string message;  // Exception-style text ("Connection reset by peer", ...).
  std::string body;     // The response body: JSON (any provider's shape) or plain text.
  TransportFailure transport = TransportFailure::kNone;
  std::string provider;
  std::string model;
  int64_t approx_tokens = 0;        // Rough size of the request that failed.
  int64_t context_length = 200000;  // The model's context window.
  int64_t num_messages = 0;         // Messages in the request that failed.
  // The response's Retry-After (or retry-after-ms), when it carried one: a usage limit
  // that says when it resets is a rate limit, not an empty account.
  std::optional<double> retry_after_seconds;
};

// Classifies a provider failure into a FailoverReason and recovery hints, following the
// upstream runtime's pipeline: provider-specific patterns first, then the HTTP status,
// then structured error codes, then message patterns, then transport kinds. The message
// of the result is the most specific one found in the body. Never fails.
//
// A failure that never reached the server (refused, unresolvable or unreachable host, a
// connect timeout) is a retryable timeout and never a reason to compress.
HERMES_API ApiError classify_api_error(const ApiErrorFacts& facts);

// Reclassifies `error` in place with the session-size facts, keeping its other fields
// (its retry_after_seconds is one of the facts).
HERMES_API void classify_in_place(ApiError& error, int64_t approx_tokens, int64_t context_length,
                                  int64_t num_messages);

// Extracts the real context window from an error text ("maximum context length is 8192
// tokens", "n_ctx_slot = 4096", ...). nullopt when none is stated, when the number is
// outside 1,024..10,000,000, or when the text is about an output-token limit only.
HERMES_API std::optional<int64_t> parse_context_limit_from_error(std::string_view message);

}  // namespace hermes
