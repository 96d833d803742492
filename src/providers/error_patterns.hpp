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
    "no usable credits"sv,
    "top up your credits"sv,
    "payment required"sv,
    "billing hard limit"sv,
    "exceeded your current quota"sv,
    "account is deactivated"sv,
    "plan does not include"sv,
    "out of funds"sv,
    "run out of funds"sv,
    "balance_depleted"sv,
    "model_not_supported_on_free_tier"sv,
    "not available on the free tier"sv,
};

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
    "resource_exhausted"sv,
    "rate increased too quickly"sv,  // Alibaba DashScope.
    "throttlingexception"sv,
    "too many concurrent requests"sv,
    "servicequotaexceededexception"sv,  // AWS Bedrock.
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
    "try again"sv,          "retry"sv,    "resets at"sv, "reset in"sv, "wait"sv,
    "requests remaining"sv, "periodic"sv, "window"sv,
};

inline constexpr std::array kPayloadTooLarge = {
    "request entity too large"sv,
    "payload too large"sv,
    "error code: 413"sv,
};

inline constexpr std::array kImageTooLarge = {
    "image exceeds"sv,          "image too large"sv,         "image_too_large"sv,
    "image size exceeds"sv,     "image dimensions exceed"sv, "dimensions exceed max allowed size"sv,
    "max allowed size: 8000"sv,
};

// Servers that accept only string content in tool messages.
inline constexpr std::array kMultimodalToolContent = {
    "text is not set"sv,
    "expected string, got list"sv,
    "expected string, got array"sv,
    "tool message content must be a string"sv,
    "tool content must be a string"sv,
    "tool message must be a string"sv,
    "tool_call.content must be string"sv,
};

inline constexpr std::array kContextOverflow = {
    "context length"sv,
    "context size"sv,
    "maximum context"sv,
    "context window"sv,
    "token limit"sv,
    "too many tokens"sv,
    "reduce the length"sv,
    "exceeds the limit"sv,
    "prompt is too long"sv,
    "prompt exceeds max length"sv,
    "prompt length"sv,
    "input is too long"sv,
    "max_tokens"sv,
    "maximum number of tokens"sv,
    "exceeds the max_model_len"sv,
    "max_model_len"sv,
    "maximum model length"sv,
    "context length exceeded"sv,
    "truncating input"sv,  // Ollama.
    "slot context"sv,
    "n_ctx_slot"sv,  // llama.cpp.
    "超过最大长度"sv,
    "上下文长度"sv,  // Chinese providers.
    "max input token"sv,
    "input token"sv,
    "exceeds the maximum number of input tokens"sv,  // AWS Bedrock.
};

inline constexpr std::array kModelNotFound = {
    "is not a valid model"sv, "invalid model"sv, "model not found"sv, "model_not_found"sv,
    "does not exist"sv,       "no such model"sv, "unknown model"sv,   "unsupported model"sv,
};

// The request itself is malformed, so every retry fails the same way.
inline constexpr std::array kRequestValidation = {
    "unknown parameter"sv,     "unsupported parameter"sv, "unrecognized request argument"sv,
    "invalid_request_error"sv, "unknown_parameter"sv,     "unsupported_parameter"sv,
};

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
};

inline constexpr std::array kAuth = {
    "invalid api key"sv, "invalid_api_key"sv, "authentication"sv, "unauthorized"sv,  "forbidden"sv,
    "invalid token"sv,   "token expired"sv,   "token revoked"sv,  "access denied"sv,
};

inline constexpr std::array kTimeout = {
    "timed out"sv,         "turn timed out"sv,      "request timed out"sv,
    "deadline exceeded"sv, "operation timed out"sv, "upstream timed out"sv,
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
// OpenSSL, Python and curl wordings.
inline constexpr std::array kCertificateVerification = {
    "certificate verify failed"sv, "certificate_verify_failed"sv,
    "ssl certificate problem"sv,   "unable to get local issuer certificate"sv,
    "self signed certificate"sv,   "self-signed certificate"sv,
    "certificate has expired"sv,   "no alternative certificate subject name matches"sv,
    "hostname mismatch"sv,
};

// An aggregator says its upstream provider, not the user's key, hit the limit.
inline constexpr std::array kUpstreamRateLimit = {
    "rate-limited upstream"sv,
    "rate limited upstream"sv,
    "upstream rate limit"sv,
    "upstream_rate_limit"sv,
};

// A Cloudflare or origin gateway answered instead of the model server.
inline constexpr std::array kGatewayOrigin = {
    "origin_bad_gateway"sv,
    "origin_unavailable"sv,
    "invalid or incomplete response"sv,
};

inline constexpr std::array kGrokEntitlement = {
    "do not have an active grok subscription"sv,
};

}  // namespace hermes::internal::error_patterns
