#include "hermes/api_error.hpp"

#include <array>
#include <utility>

namespace hermes {
namespace {

constexpr std::array<std::pair<FailoverReason, std::string_view>, 25> kReasonNames = {{
    {FailoverReason::kAuth, "auth"},
    {FailoverReason::kAuthPermanent, "auth_permanent"},
    {FailoverReason::kBilling, "billing"},
    {FailoverReason::kRateLimit, "rate_limit"},
    {FailoverReason::kUpstreamRateLimit, "upstream_rate_limit"},
    {FailoverReason::kOverloaded, "overloaded"},
    {FailoverReason::kServerError, "server_error"},
    {FailoverReason::kTimeout, "timeout"},
    {FailoverReason::kSslCertVerification, "ssl_cert_verification"},
    {FailoverReason::kContextOverflow, "context_overflow"},
    {FailoverReason::kPayloadTooLarge, "payload_too_large"},
    {FailoverReason::kImageTooLarge, "image_too_large"},
    {FailoverReason::kImageCorrupt, "image_corrupt"},
    {FailoverReason::kModelNotFound, "model_not_found"},
    {FailoverReason::kProviderPolicyBlocked, "provider_policy_blocked"},
    {FailoverReason::kContentPolicyBlocked, "content_policy_blocked"},
    {FailoverReason::kFormatError, "format_error"},
    {FailoverReason::kInvalidEncryptedContent, "invalid_encrypted_content"},
    {FailoverReason::kMultimodalToolContentUnsupported, "multimodal_tool_content_unsupported"},
    {FailoverReason::kReasoningMandatory, "reasoning_mandatory"},
    {FailoverReason::kThinkingSignature, "thinking_signature"},
    {FailoverReason::kLongContextTier, "long_context_tier"},
    {FailoverReason::kOauthLongContextBetaForbidden, "oauth_long_context_beta_forbidden"},
    {FailoverReason::kLlamaCppGrammarPattern, "llama_cpp_grammar_pattern"},
    {FailoverReason::kUnknown, "unknown"},
}};

}  // namespace

std::string_view failover_reason_name(FailoverReason reason) {
  for (const auto& [r, name] : kReasonNames) {
    if (r == reason) return name;
  }
  return "unknown";
}

std::optional<FailoverReason> parse_failover_reason(std::string_view name) {
  for (const auto& [r, n] : kReasonNames) {
    if (n == name) return r;
  }
  return std::nullopt;
}

std::string_view transport_failure_name(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::kNone:
      return "";
    case TransportFailure::kTimeout:
      return "timeout";
    case TransportFailure::kConnect:
      return "connect";
    case TransportFailure::kSsl:
      return "ssl";
    case TransportFailure::kDisconnect:
      return "disconnect";
  }
  return "";
}

std::optional<TransportFailure> parse_transport_failure(std::string_view name) {
  if (name == "none") return TransportFailure::kNone;
  for (TransportFailure failure :
       {TransportFailure::kNone, TransportFailure::kTimeout, TransportFailure::kConnect,
        TransportFailure::kSsl, TransportFailure::kDisconnect}) {
    if (transport_failure_name(failure) == name) return failure;
  }
  return std::nullopt;
}

std::string ApiError::to_string() const {
  std::string out;
  if (http_status != 0) {
    out = "HTTP " + std::to_string(http_status) + " ";
  } else if (transport != TransportFailure::kNone) {
    out = std::string(transport_failure_name(transport)) + " ";
  }
  out += failover_reason_name(reason);
  if (!message.empty()) {
    out += ": ";
    out += message;
  }
  return out;
}

}  // namespace hermes
