// hermes/provider.hpp — one model call, in one normalised shape for every wire format.
//
// A Provider turns a ProviderRequest (internal OpenAI-style messages, tool schemas,
// limits) into one HTTP exchange with a model service and returns the assistant message,
// finish reason and usage, or a Status carrying an ApiError. Conversion to and from the
// wire format (Chat Completions, Responses, Anthropic Messages) happens inside the
// provider. Providers make exactly one attempt: retries, key rotation, compression and
// fallback are the agent's recovery chain.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/cancel.hpp"
#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/status.hpp"

namespace hermes {
namespace internal {
class MessageEncodingCache;  // Opaque: providers/message_encoding_cache.hpp.
}  // namespace internal

// Wire formats.
inline constexpr std::string_view kApiModeChatCompletions = "chat_completions";
inline constexpr std::string_view kApiModeResponses = "codex_responses";
inline constexpr std::string_view kApiModeAnthropic = "anthropic_messages";

// What to send. Messages are already repaired for the wire (every tool call answered, no
// orphan results); the provider converts them and adds nothing of its own.
struct ProviderRequest {
  std::string model;
  std::vector<Message> messages;  // The system prompt, if any, is messages[0].
  Json tools = Json::array();     // OpenAI function definitions; empty = no tools.
  std::optional<int64_t> max_tokens;
  std::optional<double> temperature;
  // "" (no preference), "none" (reasoning off where the API can turn it off), "minimal",
  // "low", "medium", "high", "xhigh", "max". Mapped to each wire format's own setting.
  std::string reasoning_effort;
  bool stream = true;
  Json extra_body;  // Object merged into the top level of the body, or null.
  // Set by the agent loop: the encodings of `messages` kept from its earlier calls, which
  // the built-in providers reuse and extend. A provider of your own ignores it; anyone
  // who edits `messages` of a request that has one sets it to null.
  internal::MessageEncodingCache* encoding_cache = nullptr;
};

// One streamed event. String views are valid only during the callback.
struct StreamEvent {
  enum class Kind {
    kTextDelta,       // text: a piece of visible content.
    kReasoningDelta,  // text: a piece of reasoning.
    kToolCallStart,   // index, id, name: the model started a tool call.
    kToolCallDelta,   // index, text: a piece of that call's argument JSON.
    kUsage,           // usage: counters so far (final when the stream ends).
    kFinish,          // finish_reason: the model finished this message.
  };
  Kind kind = Kind::kTextDelta;
  std::string_view text;
  int index = 0;
  std::string_view id;
  std::string_view name;
  std::string_view finish_reason;
  const Usage* usage = nullptr;
};

using StreamCallback = std::function<void(const StreamEvent&)>;

// Timeouts of one HTTP exchange. Zero disables a limit.
struct HttpTimeouts {
  std::chrono::milliseconds connect{10'000};
  // Until the first response byte: local servers can prefill for minutes.
  std::chrono::milliseconds first_byte{600'000};
  // Longest silence between two chunks of a stream (keep-alive comments count).
  std::chrono::milliseconds idle{180'000};
  // Longest time a stream may go without a real event while bytes still arrive:
  // keep-alive comments and Anthropic pings prove the socket is alive, not that the model
  // is progressing.
  std::chrono::milliseconds stale_stream{180'000};
  // The whole exchange; reasoning models can stream for a long time.
  std::chrono::milliseconds total{3'600'000};
};

// Per-call context.
struct CallContext {
  CancelToken cancel;       // Cancelling aborts the transfer within 100 ms.
  StreamCallback on_event;  // Receives stream events as they arrive; may be empty.
  std::string api_key;      // Overrides the configured key (credential rotation); optional.
};

// What came back.
struct ProviderResponse {
  // The assistant message: content, tool_calls, reasoning and replay data, finish_reason.
  Message message;
  Usage usage;
  std::string served_model;  // The model the server says answered, when it says.
  std::string response_id;
  std::string request_id;
};

// Static facts about a configured provider.
struct ProviderInfo {
  std::string name;      // "openai", "openrouter", "anthropic", "custom", ...
  std::string api_mode;  // One of the kApiMode* values.
  std::string base_url;
  std::string model;
};

// A model service.
//
// Thread-safety: complete() may be called concurrently from several threads (several
// Agents may share one provider). Implementations hold no per-call state in members.
class HERMES_API Provider {
 public:
  virtual ~Provider() = default;

  virtual const ProviderInfo& info() const = 0;

  // Performs one model call. On failure the Status is kApiError with an ApiError (HTTP
  // status, message, body, transport failure, Retry-After), kCancelled when the token
  // was cancelled, or kInvalidArgument for a request that cannot be encoded. The error
  // is not classified; classify_api_error does that with the session's size.
  virtual Result<ProviderResponse> complete(const ProviderRequest& request,
                                            const CallContext& context) = 0;
};

// How to build one of the built-in providers.
struct ProviderConfig {
  std::string api_mode;  // Empty: resolve_api_mode(provider, base_url).
  std::string provider;  // "openai", "openrouter", "anthropic", "custom", ... (informative)
  std::string base_url;  // e.g. "https://api.openai.com/v1".
  // Sent as a bearer token; Anthropic endpoints take it in x-api-key unless they (or an
  // Anthropic OAuth token) call for a bearer token. May be empty.
  std::string api_key;
  std::string model;
  HttpTimeouts timeouts;
  std::vector<std::pair<std::string, std::string>> headers;  // Extra HTTP headers.
  // A ready provider to use instead of building one (e.g. a fallback implemented by the
  // host); the fields above then only describe it.
  std::shared_ptr<Provider> instance;
};

// Picks the wire format in the upstream order: an explicit mode, then the provider name,
// then base-URL heuristics, then Chat Completions.
HERMES_API std::string resolve_api_mode(std::string_view api_mode, std::string_view provider,
                                        std::string_view base_url);

// Builds the provider for `config`. InvalidArgument names a malformed base_url or an
// unknown api_mode.
HERMES_API Result<std::shared_ptr<Provider>> make_provider(const ProviderConfig& config);

}  // namespace hermes
