// Picks the wire format for a configuration and builds its provider.
#include <memory>
#include <string>

#include "common/text_utils.hpp"
#include "hermes/provider.hpp"
#include "providers/anthropic_messages.hpp"
#include "providers/openai_chat.hpp"
#include "providers/openai_responses.hpp"
#include "providers/url.hpp"
#include "providers/url_parts.hpp"

namespace hermes {
namespace {

std::string lower_trimmed(std::string_view text) {
  return internal::lower_ascii(internal::trim_ascii(text));
}

// InvalidArgument naming base_url unless it is an http(s) URL with a host.
Status validate_base_url(const std::string& base_url) {
  if (base_url.empty()) return Status::invalid_argument("base_url: empty");
  const auto url = internal::parse_url(base_url);
  if (!url) return Status::invalid_argument("base_url: '" + base_url + "' is not a valid URL");
  if (url->scheme != "http" && url->scheme != "https") {
    return Status::invalid_argument("base_url: '" + base_url + "' must use http or https");
  }
  return {};
}

Status validate_headers(const ProviderConfig& config) {
  for (const auto& [name, value] : config.headers) {
    if (name.empty() || name.find_first_of(":\r\n \t") != std::string::npos) {
      return Status::invalid_argument("headers: invalid header name '" + name + "'");
    }
    if (value.find_first_of("\r\n") != std::string::npos) {
      return Status::invalid_argument("headers: the value of '" + name + "' contains a line break");
    }
  }
  if (config.api_key.find_first_of("\r\n") != std::string::npos) {
    return Status::invalid_argument("api_key: contains a line break");
  }
  return {};
}

}  // namespace

std::string resolve_api_mode(std::string_view api_mode, std::string_view provider,
                             std::string_view base_url) {
  if (std::string mode = lower_trimmed(api_mode); !mode.empty()) {
    return mode == "responses" ? std::string(kApiModeResponses) : mode;
  }

  const std::string name = lower_trimmed(provider);
  if (name == "anthropic" || name == "minimax-oauth") return std::string(kApiModeAnthropic);
  if (name == "openai-codex" || name == "codex" || name == "xai" || name == "xai-oauth") {
    return std::string(kApiModeResponses);
  }

  // Host and path checks are exact, so look-alike hosts and paths do not match.
  const std::string host = internal::url_host(base_url);
  const std::string path = internal::url_path(base_url);
  // GPT-5 tool calls with reasoning need the Responses API on OpenAI itself (Chat
  // Completions answers 400), and xAI serves its reasoning models there too.
  if (host == "api.openai.com" || host == "api.x.ai") return std::string(kApiModeResponses);
  if (host == "chatgpt.com" && path.starts_with("/backend-api/codex")) {
    return std::string(kApiModeResponses);
  }
  if (host == "api.anthropic.com") return std::string(kApiModeAnthropic);
  // Anthropic-compatible gateways (MiniMax, Zhipu, LiteLLM) serve it under /anthropic.
  if (path.ends_with("/anthropic") || path.ends_with("/anthropic/v1")) {
    return std::string(kApiModeAnthropic);
  }
  // Kimi's coding endpoint takes Claude Code's native requests.
  if (host == "api.kimi.com" && path.starts_with("/coding")) {
    return std::string(kApiModeAnthropic);
  }
  return std::string(kApiModeChatCompletions);
}

Result<std::shared_ptr<Provider>> make_provider(const ProviderConfig& config) {
  HERMES_RETURN_IF_ERROR(validate_base_url(config.base_url));
  HERMES_RETURN_IF_ERROR(validate_headers(config));
  const std::string mode = resolve_api_mode(config.api_mode, config.provider, config.base_url);
  ProviderConfig resolved = config;
  resolved.api_mode = mode;
  if (mode == kApiModeChatCompletions) {
    return std::shared_ptr<Provider>(
        std::make_shared<internal::OpenAiChatProvider>(std::move(resolved)));
  }
  if (mode == kApiModeResponses) {
    return std::shared_ptr<Provider>(
        std::make_shared<internal::OpenAiResponsesProvider>(std::move(resolved)));
  }
  if (mode == kApiModeAnthropic) {
    return std::shared_ptr<Provider>(
        std::make_shared<internal::AnthropicMessagesProvider>(std::move(resolved)));
  }
  return Status::invalid_argument("api_mode: unknown '" + mode +
                                  "' (expected chat_completions, codex_responses or "
                                  "anthropic_messages)");
}

}  // namespace hermes
