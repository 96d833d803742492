// Turns a failed provider call into a FailoverReason and the recovery hints the agent's
// error handler acts on. The pipeline runs in a fixed order and the first match wins:
// provider-specific wording, then the HTTP status, then the structured error code, then
// the message alone, then transport facts. The wording lists are in error_patterns.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/text_utils.hpp"
#include "hermes/api_error.hpp"
#include "providers/error_body.hpp"
#include "providers/error_patterns.hpp"
#include "providers/reasoning_models.hpp"
#include "providers/reasoning_rejection.hpp"

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
// A provider that stalled call after call: go to the fallback instead of stalling again.
constexpr Verdict kStaleGiveUp{FailoverReason::kTimeout, false, false, false, true};
constexpr Verdict kSslCertificate{FailoverReason::kSslCertVerification, false};
constexpr Verdict kContextOverflow{FailoverReason::kContextOverflow, true, true};
constexpr Verdict kPayloadTooLarge{FailoverReason::kPayloadTooLarge, true, true};
constexpr Verdict kImageTooLarge{FailoverReason::kImageTooLarge};
constexpr Verdict kImageCorrupt{FailoverReason::kImageCorrupt};
constexpr Verdict kModelNotFound{FailoverReason::kModelNotFound, false, false, false, true};
// The account's own policy blocks the model; another provider on the account would too.
constexpr Verdict kProviderPolicy{FailoverReason::kProviderPolicyBlocked, false};
constexpr Verdict kContentPolicy{FailoverReason::kContentPolicyBlocked, false, false, false, true};
constexpr Verdict kFormatError{FailoverReason::kFormatError, false, false, false, true};
constexpr Verdict kInvalidEncryptedContent{FailoverReason::kInvalidEncryptedContent};
// Codex hides a rejected reasoning replay behind its generic block: strip the replay, but
// keep a block's terminal hints.
constexpr Verdict kMaskedReplay{FailoverReason::kInvalidEncryptedContent, false, false, false,
                                true};
constexpr Verdict kMultimodalToolContent{FailoverReason::kMultimodalToolContentUnsupported};
constexpr Verdict kReasoningMandatory{FailoverReason::kReasoningMandatory};
constexpr Verdict kThinkingSignature{FailoverReason::kThinkingSignature};
constexpr Verdict kLongContextTier{FailoverReason::kLongContextTier, true, true};
constexpr Verdict kOauthLongContextBeta{FailoverReason::kOauthLongContextBetaForbidden};
constexpr Verdict kLlamaCppGrammar{FailoverReason::kLlamaCppGrammarPattern};
constexpr Verdict kUnknown{FailoverReason::kUnknown};

// A verdict with the details upstream reports beside it (ApiError::error_context).
struct Decision {
  Decision(const Verdict& v) : verdict(v) {}  // NOLINT: a bare verdict is a decision.
  Decision(const Verdict& v, Json details) : verdict(v), context(std::move(details)) {}
  Verdict verdict;
  Json context = Json::object();
};
using Step = std::optional<Decision>;

// Everything the pipeline reads, computed once.
struct Evidence {
  int status = 0;
  TransportFailure transport = TransportFailure::kNone;
  std::string text;          // The lower-cased haystack every pattern is matched against.
  std::string raw_message;   // The error text alone, trimmed and lower-cased.
  std::string body_message;  // The body's first message (error.message, message, ...), lower.
  std::string code;          // The structured error code, lower-cased.
  std::string provider;      // Trimmed and lower-cased.
  std::string model;
  const internal::ErrorBody* body = nullptr;
  std::optional<double> retry_after;
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
  const std::string proxy = internal::lower_ascii(body.proxy_message);
  const std::string metadata = internal::lower_ascii(body.metadata_message);
  const std::string base = text;
  for (const std::string* part : {&body_msg, &other, &proxy}) {
    if (!part->empty() && !has(base, *part)) text += " " + *part;
  }
  if (!metadata.empty() && !has(base, metadata) && !has(body_msg, metadata)) {
    text += " " + metadata;
  }
  const std::string whole_body = internal::lower_ascii(internal::trim_ascii(raw_body));
  if (!whole_body.empty() && !has(text, whole_body)) text += " " + whole_body;
  return text;
}

// A session large enough that an ambiguous failure is probably an overflow. The absolute
// thresholds only stand in for the fraction on smaller windows.
bool large_session(const Evidence& e, double fraction, int64_t tokens, int64_t messages) {
  return static_cast<double>(e.approx_tokens) > static_cast<double>(e.context_length) * fraction ||
         (e.context_length <= 256'000 && (e.approx_tokens > tokens || e.num_messages > messages));
}

// A billing verdict, marked unverified when its wording is also a content-filter reply.
Decision billing(const Evidence& e) {
  if (!has_any(e.text, patterns::kUnverifiedBilling)) return kBilling;
  return {kBilling, Json{{"billing_unverified", true}, {"possible_content_filter", true}}};
}

// "Usage limit, try again in 5 minutes" is a periodic quota, not an empty wallet.
Verdict usage_limit(const Evidence& e) {
  const bool transient =
      has_any(e.text, patterns::kUsageLimit) && has_any(e.text, patterns::kUsageLimitTransient);
  return transient ? kRateLimit : kBilling;
}

// A 400 or 5xx blaming a parameter that only some routes send, from a route that never
// sends it: the provider's gateway added the field itself, so the same request may pass.
bool server_injected_parameter(const Evidence& e) {
  for (const auto& parameter : patterns::kServerInjectedParameters) {
    if (!has(e.text, parameter.name) || !has_any(e.text, patterns::kParameterRejection)) continue;
    for (std::string_view sender : parameter.senders) {
      if (has(e.provider, sender)) return false;
    }
    return true;
  }
  return false;
}

bool codex_masked_replay(const Evidence& e) {
  if (e.provider != "openai-codex" || (e.status != 0 && e.status != 400)) return false;
  constexpr std::string_view kBlocked = "request blocked.";
  return (e.code == "invalid_prompt" && e.body_message == kBlocked) ||
         e.raw_message == "invalid_prompt: request blocked.";
}

// Step 1: wording specific enough to decide before the status is looked at.
Step classify_provider_specific(const Evidence& e) {
  const std::string_view t = e.text;
  // A safety refusal is deterministic; a 400 here is not a format error.
  if (has_any(t, patterns::kContentPolicy)) return kContentPolicy;
  if (codex_masked_replay(e)) return kMaskedReplay;
  if (e.status == 400 && has(t, "thinking") && has_any(t, patterns::kThinkingMutation)) {
    return kThinkingSignature;
  }
  if (e.status == 429 && has(t, "extra usage") && has(t, "long context")) return kLongContextTier;
  if (e.status == 400 && has(t, "long context beta") && has(t, "not yet available")) {
    return kOauthLongContextBeta;
  }
  const bool grammar = has(t, "error parsing grammar") || has(t, "json-schema-to-grammar") ||
                       (has(t, "unable to generate parser") && has(t, "template"));
  // Qwen's template wraps "No user query found" in the same parser wording.
  if (e.status == 400 && grammar && !has(t, patterns::kNoUserQuery)) return kLlamaCppGrammar;
  // xAI entitlement errors also arrive as status-less stream error frames.
  if (has_any(t, patterns::kGrokEntitlement) ||
      (has(t, "out of available resources") && has(t, "grok"))) {
    return kAuthNoRotate;
  }
  return std::nullopt;
}

Decision classify_403(const Evidence& e) {
  const bool xai_spend = e.provider == "xai-oauth" && e.code == patterns::kXaiSpendingLimitCode;
  if (xai_spend || has(e.text, "key limit exceeded") || has(e.text, "spending limit") ||
      has_any(e.text, patterns::kBilling)) {
    return kBilling;
  }
  return kAuthNoRotate;
}

Decision classify_404(const Evidence& e) {
  if (has_any(e.text, patterns::kBilling))
    return kBilling;  // Nous reports credit depletion as 404.
  if (has_any(e.text, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(e.text, patterns::kModelNotFound)) return kModelNotFound;
  // A bare 404 is usually a mistyped local endpoint: surface it, do not fail over.
  return kUnknown;
}

bool openrouter_upstream_error(const Evidence& e) {
  const std::string_view message = internal::trim_ascii(e.body->error_message);
  if (!internal::iequals(message, "provider returned error")) return false;
  return e.provider == "openrouter" || e.body->has_upstream_metadata;
}

bool states_reset(const Evidence& e) {
  return has_any(e.text, patterns::kUsageLimitTransient) || e.body->states_reset ||
         e.retry_after.has_value();
}

Decision classify_429(const Evidence& e) {
  // Z.AI reuses 429 for server-wide overload; the key is fine.
  if (has_any(e.text, patterns::kOverloaded)) return kOverloaded;
  // OpenRouter's upstream provider is limited; the user's key is healthy.
  if (openrouter_upstream_error(e)) {
    Json context = Json::object();
    if (!e.body->upstream_provider.empty())
      context["upstream_provider"] = e.body->upstream_provider;
    return {kUpstreamRateLimit, std::move(context)};
  }
  // A quota wall is billing unless it is a rate-limit phrase ("Rate limit exceeded" holds
  // "limit exceeded") or says when it resets.
  const bool quota_wall = e.code == "usage_limit_reached" || has(e.text, "usage_limit_reached") ||
                          has_any(e.text, patterns::kUsageLimit) ||
                          has_any(e.text, patterns::kBilling);
  if (quota_wall && !has_any(e.text, patterns::kRateLimit) && !states_reset(e)) return kBilling;
  return kRateLimit;
}

// Overflow reported as a 5xx (llama.cpp answers 500, a model that failed to load 503),
// unless it is an empty-answer advisory that merely mentions max_tokens.
Step overflow_as_5xx(const Evidence& e) {
  if (has_any(e.text, patterns::kEmptyProviderResponse)) return kServerError;
  if (has_any(e.text, patterns::kContextOverflow)) return kContextOverflow;
  return std::nullopt;
}

Decision classify_500_502(const Evidence& e) {
  // Some gateways return request-validation errors as 5xx; retrying cannot fix them.
  const bool validation = has_any(e.text, patterns::kRequestValidation) ||
                          e.code == "invalid_request_error" || e.code == "unknown_parameter" ||
                          e.code == "unsupported_parameter";
  if (validation && !server_injected_parameter(e)) return kFormatError;
  if (auto v = overflow_as_5xx(e)) return *v;
  return kServerError;
}

bool is_request_validation_400(const Evidence& e) {
  // The generic invalid_request_error token is excluded: OpenAI puts it on real overflows.
  for (std::string_view p : patterns::kRequestValidation) {
    if (p != "invalid_request_error" && has(e.text, p)) return true;
  }
  return e.code == "unknown_parameter" || e.code == "unsupported_parameter";
}

Step classify_image_or_tool_content(const Evidence& e) {
  if (has_any(e.text, patterns::kMultimodalToolContent)) return kMultimodalToolContent;
  if (has_any(e.text, patterns::kImageCorrupt)) return kImageCorrupt;
  if (has_any(e.text, patterns::kImageTooLarge)) return kImageTooLarge;
  return std::nullopt;
}

Decision classify_400(const Evidence& e) {
  const std::string_view t = e.text;
  if (auto v = classify_image_or_tool_content(e)) return *v;
  if (e.code == "invalid_encrypted_content" || has(t, "invalid_encrypted_content") ||
      (has(t, "encrypted content for item") && has(t, "could not be verified")) ||
      has(t, "could not decrypt the provided encrypted_content")) {
    return kInvalidEncryptedContent;
  }
  // Before the validation check, which would abort: the only bad field is the disable.
  if (has(t, patterns::kReasoningMandatory)) {
    // Required, not merely unknown: the retry sends the lowest level instead of none.
    if (!internal::is_reasoning_required_rejection(t)) return kReasoningMandatory;
    return Decision(kReasoningMandatory, Json{{"reasoning_required", true}});
  }
  if (server_injected_parameter(e)) return kServerError;
  // Before the overflow check: "Unsupported parameter: 'max_tokens'" names max_tokens.
  if (is_request_validation_400(e)) return kFormatError;
  // A broken transcript can be tiny: compressing it cannot supply what is missing.
  if (has_any(t, patterns::kInvalidMessageBody) || e.code == "invalid_request_body") {
    return kFormatError;
  }
  if (auto v = overflow_as_5xx(e)) return *v;
  if (has_any(t, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(t, patterns::kModelNotFound)) return kModelNotFound;
  if (has_any(t, patterns::kRateLimit)) return kRateLimit;
  if (has_any(t, patterns::kBilling)) return billing(e);
  // Anthropic sometimes answers an oversized request with a bare "Error".
  const bool generic = e.body_message.size() < 30 || e.body_message == "error";
  if (generic && large_session(e, 0.4, 80'000, 80)) return kContextOverflow;
  return kFormatError;
}

// Step 2.
Step classify_by_status(const Evidence& e) {
  const int s = e.status;
  switch (s) {
    case 400:
      return classify_400(e);
    case 401:
      return kAuthRotate;
    case 402:
      return usage_limit(e);
    case 403:
      return classify_403(e);
    case 404:
      return classify_404(e);
    case 408:
      // Retry-safe by definition; proxies send it when a generation outruns their window.
      return kTimeout;
    case 413:
      return kPayloadTooLarge;
    case 429:
      return classify_429(e);
    case 500:
    case 502:
      return classify_500_502(e);
    case 503:
    case 529:
      if (auto v = overflow_as_5xx(e)) return *v;
      return kOverloaded;
    default:
      break;
  }
  if (s >= 400 && s < 500) return kFormatError;
  if (s >= 500 && s < 600) return kServerError;
  return std::nullopt;
}

// Step 3.
Step classify_by_code(const Evidence& e) {
  const std::string& c = e.code;
  if (c.empty()) return std::nullopt;
  // A plain-text stream error behind HTTP 200 that says the request was invalid.
  if (c == "provider_stream_non_json_data" && has(e.text, "request validation failed:")) {
    return kFormatError;
  }
  if (c == "resource_exhausted" || c == "throttled" || c == "rate_limit_exceeded") {
    return kRateLimitByCode;
  }
  if (internal::list_contains(patterns::kBillingCodes, std::string_view(c))) return kBilling;
  if (c == "model_not_found" || c == "model_not_available" || c == "invalid_model") {
    return kModelNotFound;
  }
  if (c == "context_length_exceeded" || c == "max_tokens_exceeded") return kContextOverflow;
  if (c == "invalid_encrypted_content") return kInvalidEncryptedContent;
  return std::nullopt;
}

// Step 4: the message alone.
Step classify_by_message(const Evidence& e) {
  const std::string_view t = e.text;
  if (has_any(t, patterns::kPayloadTooLarge)) return kPayloadTooLarge;
  if (auto v = classify_image_or_tool_content(e)) return *v;
  if (has_any(t, patterns::kUsageLimit)) return usage_limit(e);
  if (has_any(t, patterns::kOverloaded)) return kOverloaded;
  if (has_any(t, patterns::kBilling)) return billing(e);
  if (has_any(t, patterns::kRateLimit)) return kRateLimit;
  if (has_any(t, patterns::kEmptyProviderResponse)) return kServerError;
  if (has_any(t, patterns::kContextOverflow)) return kContextOverflow;
  if (has_any(t, patterns::kAuth)) return kAuthRotate;
  if (has_any(t, patterns::kProviderPolicy)) return kProviderPolicy;
  if (has_any(t, patterns::kModelNotFound)) return kModelNotFound;
  // Wording from connections that timed out or were never made: a transport failure.
  if (has_any(t, patterns::kTimeout) || has_any(t, patterns::kConnectionFailure)) return kTimeout;
  return std::nullopt;
}

// Steps 5 to 8: transport failures and what is left.
Decision classify_transport(const Evidence& e) {
  if (has_any(e.text, patterns::kCertificateVerification)) return kSslCertificate;
  // A TLS hiccup is never an overflow, however large the session.
  if (has_any(e.text, patterns::kTransientSsl)) return kTimeout;
  // A connection that was never made cannot have been refused for its size.
  if (e.transport == TransportFailure::kConnect) return kTimeout;
  const bool disconnect =
      e.transport == TransportFailure::kDisconnect || has_any(e.text, patterns::kServerDisconnect);
  if (disconnect && e.status == 0) {
    // A gateway idle-killing a long thinking phase is not an overflow.
    if (internal::reasoning_stale_timeout_floor(e.model)) return kTimeout;
    return large_session(e, 0.6, 120'000, 200) ? kContextOverflow : kTimeout;
  }
  if (has(e.text, "consecutive stale attempts") && has(e.text, "aborting this call")) {
    return kStaleGiveUp;
  }
  if (e.transport != TransportFailure::kNone) return kTimeout;
  return kUnknown;
}

Decision classify(const Evidence& e) {
  if (auto v = classify_provider_specific(e)) return std::move(*v);
  if (e.status != 0) {
    if (auto v = classify_by_status(e)) return std::move(*v);
  }
  if (auto v = classify_by_code(e)) return std::move(*v);
  if (auto v = classify_by_message(e)) return std::move(*v);
  return classify_transport(e);
}

void apply(Decision decision, ApiError& error) {
  const Verdict& v = decision.verdict;
  error.reason = v.reason;
  error.retryable = v.retryable;
  error.should_compress = v.compress;
  error.should_rotate_credential = v.rotate;
  error.should_fallback = v.fallback;
  error.error_context = std::move(decision.context);
}

// The body's message by upstream's order: error.message, message, then a proxy's.
std::string body_message(const internal::ErrorBody& body) {
  for (const std::string* m : {&body.error_message, &body.flat_message, &body.proxy_message}) {
    const std::string_view text = internal::trim_ascii(*m);
    if (!text.empty()) return internal::lower_ascii(text);
  }
  return {};
}

Evidence gather(const ApiErrorFacts& facts, const internal::ErrorBody& body) {
  Evidence e;
  e.status = facts.http_status;
  e.transport = facts.transport;
  e.text = build_haystack(facts.message, facts.body, body);
  e.raw_message = internal::lower_ascii(internal::trim_ascii(facts.message));
  e.body_message = body_message(body);
  e.code = internal::lower_ascii(body.code);
  e.provider = internal::lower_ascii(internal::trim_ascii(facts.provider));
  e.model = facts.model;
  e.body = &body;
  e.retry_after = facts.retry_after_seconds;
  e.approx_tokens = facts.approx_tokens;
  e.context_length = facts.context_length;
  e.num_messages = facts.num_messages;
  return e;
}

// The message the result carries: the body's own message, else the error text.
std::string result_message(const ApiErrorFacts& facts, const internal::ErrorBody& body) {
  constexpr std::size_t kMaxMessageBytes = 500;
  for (const std::string* candidate :
       {&body.error_message, &body.flat_message, &body.proxy_message, &facts.message}) {
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
  error.retry_after_seconds = facts.retry_after_seconds;
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
  facts.retry_after_seconds = error.retry_after_seconds;
  const internal::ErrorBody body = internal::read_error_body(std::string_view(error.body));
  if (error.error_code.empty()) error.error_code = body.code;
  apply(classify(gather(facts, body)), error);
}

}  // namespace hermes
