// The Anthropic Messages provider: POST {base}/v1/messages on Anthropic and on the
// Anthropic-compatible endpoints of MiniMax, Kimi, DeepSeek, Azure, LiteLLM and others.
#pragma once

#include <string>
#include <vector>

#include "common/provider_call.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// Thread-safety: complete() may run on many threads at once.
class AnthropicMessagesProvider final : public LoopAwareProvider {
 public:
  // `config` must have passed make_provider's validation.
  explicit AnthropicMessagesProvider(ProviderConfig config);

  const ProviderInfo& info() const override { return info_; }
  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& context) override;

 private:
  ProviderConfig config_;
  ProviderInfo info_;
  std::string url_;
};

// The messages endpoint of a base URL: trailing slashes and a trailing /v1 are dropped
// before /v1/messages is appended, as the official SDK expects a host root.
std::string anthropic_messages_url(std::string base_url);

}  // namespace hermes::internal
