// Turns a failed provider call into a FailoverReason and the recovery hints the agent's
// error handler acts on. The pipeline runs in a fixed order and the first match wins:
// provider-specific wording, then the HTTP status, then the structured error code, then
// the message alone, then transport facts. The wording lists are in error_patterns.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/text_utils.hpp"
#include "hermes/api_error.hpp"
#include "providers/error_body.hpp"
#include "providers/error_patterns.hpp"
#include "providers/reasoning_models.hpp"

namespace hermes {
namespace {

namespace patterns = internal::error_patterns;

// A verdict: the reason and the four hints. Flags not named are false.
struct Verdict {
  FailoverReason reason = FailoverReason::kUnknown;
  bool retryable = true;
  bool compress = false;
  bool rotate = false;
  bool fallback = false;
};

constexpr Verdict kAuthRotate{FailoverReason::kAuth, false, false, true, true};
constexpr Verdict kAuthNoRotate{FailoverReason::kAuth, false, false, false, true};
constexpr Verdict kBilling{FailoverReason::kBilling, false, false, true, true};
constexpr Verdict kRateLimit{FailoverReason::kRateLimit, true, false, true, true};
// A structured rate-limit code: rotate the key, but do not leave the provider yet.
constexpr Verdict kRateLimitByCode{FailoverReason::kRateLimit, true, false, true, false};
// The aggregator's upstream is limited, not the user's key: rotating would not help.
constexpr Verdict kUpstreamRateLimit{FailoverReason::kUpstreamRateLimit, true, false, false, true};
constexpr Verdict kOverloaded{FailoverReason::kOverloaded};
constexpr Verdict kServerError{FailoverReason::kServerError};
constexpr Verdict kTimeout{FailoverReason::kTimeout};
constexpr Verdict kSslCertificate{FailoverReason::kSslCertVerification, false, false, false, true};
constexpr Verdict kContextOverflow{FailoverReason::kContextOverflow, true, true};
constexpr Verdict kPayloadTooLarge{FailoverReason::kPayloadTooLarge, true, true};
constexpr Verdict kImageTooLarge{FailoverReason::kImageTooLarge};
constexpr Verdict kModelNotFound{FailoverReason::kModelNotFound, false, false, false, true};
// The account's own policy blocks the model; another provider on the account would too.
constexpr Verdict kProviderPolicy{FailoverReason::kProviderPolicyBlocked, false};
constexpr Verdict kContentPolicy{FailoverReason::kContentPolicyBlocked, false, false, false, true};
constexpr Verdict kFormatError{FailoverReason::kFormatError, false, false, false, true};
constexpr Verdict kInvalidEncryptedContent{FailoverReason::kInvalidEncryptedContent};
constexpr Verdict kMultimodalToolContent{FailoverReason::kMultimodalToolContentUnsupported};
constexpr Verdict kThinkingSignature{FailoverReason::kThinkingSignature};
constexpr Verdict kLongContextTier{FailoverReason::kLongContextTier, true, true};
constexpr Verdict kOauthLongContextBeta{FailoverReason::kOauthLongContextBetaForbidden};
constexpr Verdict kLlamaCppGrammar{FailoverReason::kLlamaCppGrammarPattern};
constexpr Verdict kUnknown{FailoverReason::kUnknown};

// Everything the pipeline reads, computed once.
struct Evidence {
  int status = 0;
  TransportFailure transport = TransportFailure::kNone;
  std::string text;          // The lower-cased haystack every pattern is matched against.
  std::string body_message;  // error.message or message, trimmed and lower-cased.
  std::string code;          // The structured error code, lower-cased.
  std::string model;
  int64_t approx_tokens = 0;
  int64_t context_length = 0;
  int64_t num_messages = 0;
};

bool has(std::string_view text, std::string_view pattern) {
  return text.find(pattern) != std::string_view::npos;
}

template <typename Patterns>
bool has_any(std::string_view text, const Patterns& list) {
  for (std::string_view p : list) {
    if (has(text, p)) return true;
  }
  return false;
}

// The haystack: the error text, the body's message and OpenRouter's upstream message,
// then the whole body. Upstream matches against the SDK's exception text, which embeds
// the body; some signals live only in fields other than the message (Xiaomi's
// "param":"text is not set", Azure's "code":"content_filter").
std::string build_haystack(std::string_view message, std::string_view raw_body,
                           const internal::ErrorBody& body) {
  std::string text = internal::lower_ascii(message);
  const std::string body_msg =
      internal::lower_ascii(body.error_message.empty() ? body.flat_message : body.error_message);
  const std::string other = internal::lower_ascii(body.other_message);
  const std::string metadata = internal::lower_ascii(body.metadata_message);
  const std::string base = text;
  for (const std::string* part : {&body_msg, &other}) {
    if (!part->empty() && !has(base, *part)) text += " " + *part;
  }
  if (!metadata.empty() && !has(base, metadata) && !has(body_msg, metadata)) {
    text += " " + metadata;
  }
  const std::string whole_body = internal::lower_ascii(internal::trim_ascii(raw_body));
  if (!whole_body.empty() && !has(text, whole_body)) text += " " + whole_body;
  return text;
}

// A session big enough that a bare 400 is probably an overflow.
bool large_for_generic_400(const Evidence& e) {
  return static_cast<double>(e.approx_tokens) > static_cast<double>(e.context_length) * 0.4 ||
         (e.context_length <= 256'000 && (e.approx_tokens > 80'000 || e.num_messages > 80));
}

// A session big enough that a gateway's silent failure is probably an overflow.
bool large_for_gateway(const Evidence& e) {
  return static_cast<double>(e.approx_tokens) > static_cast<double>(e.context_length) * 0.6 ||
         (e.context_length <= 256'000 && (e.approx_tokens > 120'000 || e.num_messages > 200));
}

// Step 1: wording specific enough to decide before the status is looked at.
std::optional<Verdict> classify_provider_specific(const Evidence& e) {
  const std::string_view t = e.text;
  // A safety refusal is deterministic; a 400 here is not a format error.
  if (has_any(t, patterns::kContentPolicy)) return kContentPolicy;
  if (e.status == 400 && has(t, "thinking") &&
      (has(t, "signature") || has(t, "cannot be modified") || has(t, "must remain as they were"))) {
    return kThinkingSignature;
  }
  if (e.status == 429 && has(t, "extra usage") && has(t, "long context")) return kLongContextTier;
  if (e.status == 400 && has(t, "long context beta") && has(t, "not yet available")) {
    return kOauthLongContextBeta;
  }
  if (e.status == 400 && (has(t, "error parsing grammar") || has(t, "json-schema-to-grammar") ||
                          (has(t, "unable to generate parser") && has(t, "template")))) {
    return kLlamaCppGrammar;
  }
  // xAI entitlement errors also arrive as status-less stream error frames.
  if (has_any(t, patterns::kGrokEntitlement) ||
      (has(t, "out of available resources") && has(t, "grok"))) {
    return kAuthNoRotate;
  }
  return std::nullopt;
}

Verdict classify_402(const Evidence& e) {
  // "Usage limit, try again in 5 minutes" is a periodic quota, not an empty wallet.
  if (has_any(e.text, patterns::kUsageLimit) && has_any(e.text, patterns::kUsageLimitTransient)) {
    return kRateLimit;
  }
  return kBilling;
}

Verdict classify_404(const Evidence& e) {
  if (has_any(e.text, patterns::kBilling))
    return kBilling;  // Nous reports credit depletion as 404.
  if (has_any(e.text, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(e.text, patterns::kModelNotFound)) return kModelNotFound;
  // A bare 404 is usually a mistyped local endpoint: surface it, do not fail over.
  return kUnknown;
}

Verdict classify_429(const Evidence& e) {
  // Z.AI reuses 429 for server-wide overload; the key is fine.
  if (has_any(e.text, patterns::kOverloaded)) return kOverloaded;
  if (has_any(e.text, patterns::kUpstreamRateLimit)) return kUpstreamRateLimit;
  return kRateLimit;
}

bool is_request_validation_400(const Evidence& e) {
  // The generic invalid_request_error token is excluded: OpenAI puts it on real overflows.
  for (std::string_view p : patterns::kRequestValidation) {
    if (p != "invalid_request_error" && has(e.text, p)) return true;
  }
  return e.code == "unknown_parameter" || e.code == "unsupported_parameter";
}

Verdict classify_400(const Evidence& e) {
  const std::string_view t = e.text;
  if (has_any(t, patterns::kMultimodalToolContent)) return kMultimodalToolContent;
  if (has_any(t, patterns::kImageTooLarge)) return kImageTooLarge;
  if (e.code == "invalid_encrypted_content" || has(t, "invalid_encrypted_content") ||
      (has(t, "encrypted content for item") && has(t, "could not be verified"))) {
    return kInvalidEncryptedContent;
  }
  // Before the overflow check: "Unsupported parameter: 'max_tokens'" names max_tokens.
  if (is_request_validation_400(e)) return kFormatError;
  if (has_any(t, patterns::kContextOverflow)) return kContextOverflow;
  if (has_any(t, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(t, patterns::kModelNotFound)) return kModelNotFound;
  if (has_any(t, patterns::kRateLimit)) return kRateLimit;
  if (has_any(t, patterns::kBilling)) return kBilling;
  // Anthropic sometimes answers an oversized request with a bare "Error".
  const bool generic = e.body_message.size() < 30 || e.body_message == "error";
  if (generic && large_for_generic_400(e)) return kContextOverflow;
  return kFormatError;
}

bool is_gateway_failure(const Evidence& e) {
  const std::string_view t = e.text;
  const bool origin = has_any(t, patterns::kGatewayOrigin) ||
                      (has(t, "origin") && (has(t, "bad gateway") || has(t, "bad_gateway")));
  return has(t, "cloudflare") || origin;
}

Verdict classify_500_502(const Evidence& e) {
  // Some gateways return request-validation errors as 5xx; retrying cannot fix them.
  if (has_any(e.text, patterns::kRequestValidation) || e.code == "invalid_request_error" ||
      e.code == "unknown_parameter" || e.code == "unsupported_parameter") {
    return kFormatError;
  }
  if (has_any(e.text, patterns::kContextOverflow)) return kContextOverflow;
  return kServerError;
}

// Step 2.
std::optional<Verdict> classify_by_status(const Evidence& e) {
  const int s = e.status;
  switch (s) {
    case 401:
      return kAuthRotate;
    case 403:
      if (has(e.text, "key limit exceeded") || has(e.text, "spending limit") ||
          has_any(e.text, patterns::kBilling)) {
        return kBilling;
      }
      return kAuthNoRotate;
    case 402:
      return classify_402(e);
    case 404:
      return classify_404(e);
    case 413:
      return kPayloadTooLarge;
    case 429:
      return classify_429(e);
    case 400:
      return classify_400(e);
    default:
      break;
  }
  // A proxy may hide an oversized prompt behind a generic 5xx.
  if ((s == 500 || s == 502 || s == 503 || s == 504) && is_gateway_failure(e) &&
      large_for_gateway(e)) {
    return kContextOverflow;
  }
  if (s == 500 || s == 502) return classify_500_502(e);
  if (s == 503 || s == 529) {
    return has_any(e.text, patterns::kContextOverflow) ? kContextOverflow : kOverloaded;
  }
  if (s >= 400 && s < 500) return kFormatError;
  if (s >= 500 && s < 600) return kServerError;
  return std::nullopt;
}

// Step 3.
std::optional<Verdict> classify_by_code(const Evidence& e) {
  const std::string& c = e.code;
  if (c.empty()) return std::nullopt;
  if (c == "resource_exhausted" || c == "throttled" || c == "rate_limit_exceeded") {
    return kRateLimitByCode;
  }
  for (std::string_view billing :
       {"insufficient_quota", "billing_not_active", "payment_required", "insufficient_credits",
        "no_usable_credits", "balance_depleted", "model_not_supported_on_free_tier"}) {
    if (c == billing) return kBilling;
  }
  if (c == "model_not_found" || c == "model_not_available" || c == "invalid_model") {
    return kModelNotFound;
  }
  if (c == "context_length_exceeded" || c == "max_tokens_exceeded") return kContextOverflow;
  if (c == "invalid_encrypted_content") return kInvalidEncryptedContent;
  return std::nullopt;
}

// Step 4: the message alone.
std::optional<Verdict> classify_by_message(const Evidence& e) {
  const std::string_view t = e.text;
  if (has_any(t, patterns::kPayloadTooLarge)) return kPayloadTooLarge;
  if (has_any(t, patterns::kMultimodalToolContent)) return kMultimodalToolContent;
  if (has_any(t, patterns::kImageTooLarge)) return kImageTooLarge;
  if (has_any(t, patterns::kUsageLimit)) {
    return has_any(t, patterns::kUsageLimitTransient) ? kRateLimit : kBilling;
  }
  if (has_any(t, patterns::kOverloaded)) return kOverloaded;
  if (has_any(t, patterns::kBilling)) return kBilling;
  if (has_any(t, patterns::kRateLimit)) return kRateLimit;
  if (has_any(t, patterns::kContextOverflow)) return kContextOverflow;
  if (has_any(t, patterns::kAuth)) return kAuthRotate;
  if (has_any(t, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(t, patterns::kModelNotFound)) return kModelNotFound;
  if (has_any(t, patterns::kTimeout)) return kTimeout;
  return std::nullopt;
}

// Steps 5 to 8: transport failures and what is left.
Verdict classify_transport(const Evidence& e) {
  if (has_any(e.text, patterns::kCertificateVerification)) return kSslCertificate;
  // A TLS hiccup is never an overflow, however large the session.
  if (has_any(e.text, patterns::kTransientSsl)) return kTimeout;
  const bool disconnect =
      e.transport == TransportFailure::kDisconnect || has_any(e.text, patterns::kServerDisconnect);
  if (disconnect && e.status == 0) {
    // A gateway idle-killing a long thinking phase is not an overflow.
    if (internal::reasoning_stale_timeout_floor(e.model)) return kTimeout;
    return large_for_gateway(e) ? kContextOverflow : kTimeout;
  }
  if (e.transport != TransportFailure::kNone) return kTimeout;
  return kUnknown;
}

Verdict classify(const Evidence& e) {
  if (auto v = classify_provider_specific(e)) return *v;
  if (e.status != 0) {
    if (auto v = classify_by_status(e)) return *v;
  }
  if (auto v = classify_by_code(e)) return *v;
  if (auto v = classify_by_message(e)) return *v;
  return classify_transport(e);
}

void apply(const Verdict& v, ApiError& error) {
  error.reason = v.reason;
  error.retryable = v.retryable;
  error.should_compress = v.compress;
  error.should_rotate_credential = v.rotate;
  error.should_fallback = v.fallback;
}

Evidence gather(const ApiErrorFacts& facts, const internal::ErrorBody& body) {
  Evidence e;
  e.status = facts.http_status;
  e.transport = facts.transport;
  e.text = build_haystack(facts.message, facts.body, body);
  const std::string& body_msg = body.error_message.empty() ? body.flat_message : body.error_message;
  e.body_message = internal::lower_ascii(internal::trim_ascii(body_msg));
  e.code = internal::lower_ascii(body.code);
  e.model = facts.model;
  e.approx_tokens = facts.approx_tokens;
  e.context_length = facts.context_length;
  e.num_messages = facts.num_messages;
  return e;
}

// The message the result carries: the body's own message, else the error text.
std::string result_message(const ApiErrorFacts& facts, const internal::ErrorBody& body) {
  constexpr std::size_t kMaxMessageBytes = 500;
  for (const std::string* candidate : {&body.error_message, &body.flat_message, &facts.message}) {
    const std::string_view text = internal::trim_ascii(*candidate);
    if (!text.empty()) return internal::truncate_utf8(text, kMaxMessageBytes);
  }
  return internal::best_error_message(body, facts.body, kMaxMessageBytes);
}

}  // namespace

ApiError classify_api_error(const ApiErrorFacts& facts) {
  const internal::ErrorBody body = internal::read_error_body(std::string_view(facts.body));
  ApiError error;
  error.http_status = facts.http_status;
  error.message = result_message(facts, body);
  error.body = facts.body;
  error.error_code = body.code;
  error.transport = facts.transport;
  error.provider = facts.provider;
  error.model = facts.model;
  apply(classify(gather(facts, body)), error);
  return error;
}

void classify_in_place(ApiError& error, int64_t approx_tokens, int64_t context_length,
                       int64_t num_messages) {
  ApiErrorFacts facts;
  facts.http_status = error.http_status;
  facts.message = error.message;
  facts.body = error.body;
  facts.transport = error.transport;
  facts.provider = error.provider;
  facts.model = error.model;
  facts.approx_tokens = approx_tokens;
  facts.context_length = context_length;
  facts.num_messages = num_messages;
  const internal::ErrorBody body = internal::read_error_body(std::string_view(error.body));
  if (error.error_code.empty()) error.error_code = body.code;
  apply(classify(gather(facts, body)), error);
}

}  // namespace hermes
