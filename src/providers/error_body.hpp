// What an error body says, whatever the shape: OpenAI {"error":{...}}, OpenRouter with
// the upstream error in error.metadata.raw, older vLLM's flat {"object":"error",...},
// FastAPI's {"detail":...}, DeepInfra's error_message, litellm's errorMessage, or plain
// text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "common/text_utils.hpp"
#include "hermes/json.hpp"

namespace hermes::internal {

// An error body kept on an ApiError is for classification and logs, not for archiving.
inline constexpr std::size_t kMaxErrorBodyBytes = 16 * 1024;
// How much of a stream payload that could not be read an error message quotes.
inline constexpr std::size_t kMaxQuotedPayloadBytes = 200;

struct ErrorBody {
  bool is_json = false;          // The body parsed as a JSON object.
  std::string error_message;     // error.message (error being an object).
  std::string flat_message;      // The top-level message.
  std::string other_message;     // detail, error_message, or `error` given as a string.
  std::string metadata_message;  // The upstream message in OpenRouter's error.metadata.raw.
  std::string proxy_message;     // litellm/Bedrock proxies: errorMessage, else errorArgs.reason.
  std::string upstream_provider;       // OpenRouter's error.metadata.provider_name, trimmed.
  bool has_upstream_metadata = false;  // error.metadata names a raw error or a provider.
  bool states_reset = false;           // A reset time field (resets_at, retry_after, ...) is set.
  std::string code;              // The error code, by the classifier's rules.
  std::optional<int> status;     // An HTTP status the body states (100..599).
};

// Reads `body`; never fails (a body that is not JSON gives is_json == false).
ErrorBody read_error_body(std::string_view body);
ErrorBody read_error_body(const Json& body);

// The most specific human-readable message: error.message, message, detail, ..., else
// the raw text. Trimmed and cut to at most `max_bytes` on a character boundary.
std::string best_error_message(const ErrorBody& facts, std::string_view raw_body,
                               std::size_t max_bytes = 500);

}  // namespace hermes::internal
