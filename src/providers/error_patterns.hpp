// The wording that identifies each kind of provider failure: lower-case substrings
// matched against the lower-cased error text. These are data, collected from real
// provider responses; the pipeline that consults them is error_classifier.cpp.
#pragma once

#include <array>
#include <string_view>

namespace hermes::internal::error_patterns {

using namespace std::string_view_literals;

inline constexpr std::array kBilling = {
    "insufficient credits"sv,
    "insufficient_quota"sv,
    "insufficient balance"sv,
    "credit balance"sv,
    "credits exhausted"sv,
    "credits have been exhausted"sv,
    "requires available credits"sv,  // Nous: a paid model on an empty balance.
    "account balance is too low"sv,
    "no usable credits"sv,
    "top up your credits"sv,
    "payment required"sv,
    "billing hard limit"sv,
    "exceeded your current quota"sv,
    "account is deactivated"sv,
    "plan does not include"sv,
    "out of extra usage"sv,  // Anthropic subscription overage, sent as a 400.
    "out of funds"sv,
    "run out of funds"sv,
    "balance_depleted"sv,
    "model_not_supported_on_free_tier"sv,
    "not available on the free tier"sv,
};

// Billing wording that does not prove an empty account: Anthropic sends the same "out of
// extra usage" body when its content filter rejects part of a subscription request.
inline constexpr std::array kUnverifiedBilling = {
    "out of extra usage"sv,
};

// Structured codes meaning the account cannot pay for the call.
inline constexpr std::array kBillingCodes = {
    "insufficient_quota"sv,
    "billing_not_active"sv,
    "payment_required"sv,
    "insufficient_credits"sv,
    "no_usable_credits"sv,
    "balance_depleted"sv,
    "model_not_supported_on_free_tier"sv,
    "member_spend_cap_exceeded"sv,
    "personal-team-blocked:spending-limit"sv,  // xAI, sent as a 403.
};

// xAI reports an exhausted spending limit as a 403 with this code; from other providers
// a 403 with a billing code stays an auth failure.
inline constexpr std::string_view kXaiSpendingLimitCode = "personal-team-blocked:spending-limit";

// Rate limiting. Matched before the overflow wording, so Bedrock's "Throttling error:
// Too many tokens, please wait" is a throttle and not an overflow.
inline constexpr std::array kRateLimit = {
    "rate limit"sv,
    "rate_limit"sv,
    "too many requests"sv,
    "throttled"sv,
    "requests per minute"sv,
    "tokens per minute"sv,
    "requests per day"sv,
    "try again in"sv,
    "please retry after"sv,
    "resource exhausted"sv,  // A worker's request slots are all taken: gRPC's spellings.
    "resource_exhausted"sv,
    "resource-exhausted"sv,
    "resourceexhausted"sv,
    "rate increased too quickly"sv,  // Alibaba DashScope.
    "throttlingexception"sv,
    "too many concurrent requests"sv,
    "servicequotaexceededexception"sv,  // AWS Bedrock.
    "throttling"sv,
};

// The server is busy, the key is fine: back off, never rotate the key.
inline constexpr std::array kOverloaded = {
    "overloaded"sv,
    "temporarily overloaded"sv,
    "service is temporarily overloaded"sv,
    "service may be temporarily overloaded"sv,
    "server is overloaded"sv,
    "server overloaded"sv,
    "service overloaded"sv,
    "service is overloaded"sv,
    "upstream overloaded"sv,
    "currently overloaded"sv,
    "at capacity"sv,
    "over capacity"sv,
};

// Either a spent balance or a periodic quota; kUsageLimitTransient tells them apart.
inline constexpr std::array kUsageLimit = {
    "usage limit"sv,
    "quota"sv,
    "limit exceeded"sv,
    "key limit exceeded"sv,
};
inline constexpr std::array kUsageLimitTransient = {
    "try again"sv,   "retry"sv,        "resets at"sv,  "reset in"sv,           "resets in"sv,
    "reset after"sv, "available in"sv, "wait"sv,       "requests remaining"sv, "periodic"sv,
    "window"sv,      "per minute"sv,   "per second"sv,
};

// Body fields that give a usage limit's reset time.
inline constexpr std::array kResetFields = {
    "resets_in_seconds"sv,
    "resets_at"sv,
    "reset_at"sv,
    "retry_after"sv,
};

inline constexpr std::array kPayloadTooLarge = {
    "request entity too large"sv,
    "payload too large"sv,
    "error code: 413"sv,
    "request_too_large"sv,  // Anthropic's 413 type, re-wrapped by proxies without a status.
    "request exceeds the maximum size"sv,
};

inline constexpr std::array kImageTooLarge = {
    "image exceeds"sv,          "image too large"sv,         "image_too_large"sv,
    "image size exceeds"sv,     "image dimensions exceed"sv, "dimensions exceed max allowed size"sv,
    "max allowed size: 8000"sv,
    "media exceeds"sv,  // MiniMax.
    "media too large"sv,
};

// Image bytes the provider cannot decode: shrinking cannot help. xAI's wordings; the
// last is a whole sentence because its fragments also describe failed downloads.
inline constexpr std::array kImageCorrupt = {
    "invalid png image"sv,
    "invalid jpeg image"sv,
    "base64 string of provided image cannot be decoded"sv,
    "downloaded response does not contain a valid jpg, png, webp, or ico image"sv,
};

// Servers that accept only string content in tool messages.
inline constexpr std::array kMultimodalToolContent = {
    "text is not set"sv,
    "tool message content must be a string"sv,
    "tool content must be a string"sv,
    "tool message must be a string"sv,
    "expected string, got list"sv,
    "expected string, got array"sv,
    "tool_call.content must be string"sv,
};

// "max_tokens" alone stays: an output-cap rejection is recovered on the overflow path.
inline constexpr std::array kContextOverflow = {
    "context length"sv,
    "context size"sv,
    "maximum context"sv,
    "token limit"sv,
    "too many tokens"sv,
    "reduce the length"sv,
    "exceeds the limit"sv,
    "context window"sv,
    "prompt is too long"sv,
    "prompt exceeds max length"sv,
    "max_tokens"sv,
    "maximum number of tokens"sv,
    "exceeds the max_model_len"sv,  // vLLM.
    "max_model_len"sv,
    "prompt length"sv,
    "input is too long"sv,
    "maximum model length"sv,
    "context length exceeded"sv,  // Ollama.
    "truncating input"sv,
    "slot context"sv,  // llama.cpp.
    "n_ctx_slot"sv,
    "超过最大长度"sv,  // Chinese providers.
    "上下文长度"sv,
    "tokens in request more than max tokens allowed"sv,  // Z.AI, code 1210.
    "max input token"sv,                                 // AWS Bedrock.
    "input token"sv,
    "exceeds the maximum number of input tokens"sv,
    "maximum allowed input length"sv,  // Together, Fireworks.
};

inline constexpr std::array kModelNotFound = {
    "is not a valid model"sv,
    "invalid model"sv,
    "model not found"sv,
    "model_not_found"sv,
    "does not exist"sv,
    "no such model"sv,
    "unknown model"sv,
    "unsupported model"sv,
    "no endpoints found that support tool use"sv,  // OpenRouter: no endpoint takes tools.
};

// Qwen's chat template raising "No user query found": the transcript is at fault, not a
// tool schema's grammar.
inline constexpr std::string_view kNoUserQuery = "no user query found";

// The transcript itself is rejected (a content-less assistant stub after a dead stream,
// no user turn): the input may be tiny and compression cannot invent the missing part.
inline constexpr std::array kInvalidMessageBody = {
    "must have non-empty content"sv,
    "messages must have non-empty"sv,
    "invalid_request_body"sv,
    "text content blocks must be non-empty"sv,
    "content field is required"sv,
    "messages: at least one message is required"sv,
    kNoUserQuery,
};

// The request itself is malformed, so every retry fails the same way.
inline constexpr std::array kRequestValidation = {
    "unknown parameter"sv,     "unsupported parameter"sv, "unrecognized request argument"sv,
    "invalid_request_error"sv, "unknown_parameter"sv,     "unsupported_parameter"sv,
};

// A parameter hermes sends on some routes only, and the providers whose routes send it.
// A rejection of it from any other provider means the gateway added the field itself.
struct InjectedParameter {
  std::string_view name;
  std::array<std::string_view, 6> senders;
};
inline constexpr std::array kServerInjectedParameters = {
    InjectedParameter{"prompt_cache_retention"sv,
                      {"meta"sv, "muse"sv, "msl"sv, "model-api"sv, "bedrock"sv, "mantle"sv}},
};
inline constexpr std::array kParameterRejection = {
    "not supported"sv,
    "unsupported"sv,
    "unknown"sv,
    "unrecognized"sv,
};

// Anthropic's wordings for a thinking block changed after it was signed.
inline constexpr std::array kThinkingMutation = {
    "signature"sv,
    "cannot be modified"sv,
    "must remain as they were"sv,
};

// A route that insists on reasoning, answering a request that turned it off.
inline constexpr std::string_view kReasoningMandatory = "reasoning is mandatory";

// OpenRouter account guardrails: the model exists, the account's policy excludes it.
inline constexpr std::array kProviderPolicy = {
    "no endpoints available matching your guardrail"sv,
    "no endpoints available matching your data policy"sv,
    "no endpoints found matching your data policy"sv,
};

// Safety refusals of this particular prompt. "content filter" with a space is absent on
// purpose: providers echo it in harmless configuration text.
inline constexpr std::array kContentPolicy = {
    "flagged for possible cybersecurity risk"sv,
    "trusted access for cyber"sv,
    "violates our usage policies"sv,
    "violates openai's usage policies"sv,
    "your request was flagged by"sv,
    "prompt was flagged by our safety"sv,
    "responses cannot be generated due to safety"sv,
    "content_filter"sv,
    "responsibleaipolicyviolation"sv,
    "new_sensitive"sv,  // MiniMax.
};

inline constexpr std::array kAuth = {
    "invalid api key"sv, "invalid_api_key"sv, "gateway_auth_failed"sv, "authentication"sv,
    "unauthorized"sv,    "forbidden"sv,       "invalid token"sv,       "token expired"sv,
    "token revoked"sv,   "access denied"sv,
};

// Empty-answer advisories from aggregators. They often mention max_tokens, so they are
// checked before the overflow wording: compressing would not bring an answer back.
inline constexpr std::array kEmptyProviderResponse = {
    "returned an empty response"sv,
    "empty response despite retries"sv,
    "provider returned an empty response"sv,
    "model returning empty responses"sv,
    "empty response stream"sv,
};

inline constexpr std::array kTimeout = {
    "timed out"sv,         "turn timed out"sv,      "request timed out"sv,
    "deadline exceeded"sv, "operation timed out"sv, "upstream timed out"sv,
};

// A connection that was never established: refused, no route, DNS, or a fetch bridge
// or proxy saying so. Never an overflow, however large the session.
inline constexpr std::array kConnectionFailure = {
    "connection refused"sv,
    "econnrefused"sv,
    "no route to host"sv,
    "network is unreachable"sv,
    "network unreachable"sv,
    "name or service not known"sv,
    "temporary failure in name resolution"sv,
    "nodename nor servname provided"sv,
    "getaddrinfo failed"sv,
    "getaddrinfo enotfound"sv,
    "eai_again"sv,
    "fetch failed"sv,  // Node's undici.
    "failed to fetch"sv,
    "upstream connect error"sv,  // Envoy.
};

// A connection closed without an answer: a network hiccup, or a gateway that dropped
// an oversized request.
inline constexpr std::array kServerDisconnect = {
    "server disconnected"sv,     "peer closed connection"sv,  "connection reset by peer"sv,
    "connection was closed"sv,   "network connection lost"sv, "unexpected eof"sv,
    "incomplete chunked read"sv,
};

// TLS hiccups mid-stream: retry, never compress.
inline constexpr std::array kTransientSsl = {
    "bad record mac"sv,           "ssl alert"sv,   "tls alert"sv,
    "ssl handshake failure"sv,    "tlsv1 alert"sv, "sslv3 alert"sv,
    "bad_record_mac"sv,           "ssl_alert"sv,   "tls_alert"sv,
    "tls_alert_internal_error"sv, "[ssl:"sv,
};

// The server's certificate cannot be trusted: retrying the same endpoint cannot help.
// Python's and OpenSSL's wordings, and libcurl's, which hermes's transport reports.
inline constexpr std::array kCertificateVerification = {
    "certificate verify failed"sv,
    "certificate_verify_failed"sv,
    "unable to get local issuer certificate"sv,
    "self-signed certificate"sv,
    "self signed certificate"sv,
    "certificate has expired"sv,
    "hostname mismatch, certificate is not valid"sv,
    "unable to verify the first certificate"sv,
    "ssl certificate problem"sv,                          // libcurl.
    "no alternative certificate subject name matches"sv,  // libcurl.
};

inline constexpr std::array kGrokEntitlement = {
    "do not have an active grok subscription"sv,
};

}  // namespace hermes::internal::error_patterns
