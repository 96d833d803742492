// The Chat Completions provider: OpenAI, OpenRouter, vLLM, llama.cpp, Ollama, DeepSeek
// and every other server that speaks POST {base}/chat/completions.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "common/provider_call.hpp"
#include "hermes/provider.hpp"
#include "providers/chat_request_builder.hpp"

namespace hermes::internal {

// Thread-safety: complete() may run on many threads at once.
class OpenAiChatProvider final : public LoopAwareProvider {
 public:
  // `config` must have passed make_provider's validation.
  explicit OpenAiChatProvider(ProviderConfig config);

  const ProviderInfo& info() const override { return info_; }
  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& context) override;

 private:
  Result<ProviderResponse> attempt(const ProviderRequest& request, const CallContext& context,
                                   const ChatDialect& dialect) const;
  Result<std::vector<std::string>> headers(const CallContext& context, bool stream) const;
  // The request's model, else the configured one.
  const std::string& model_for(const ProviderRequest& request) const;

  ProviderConfig config_;
  ProviderInfo info_;
  std::string url_;
  // Some strict servers reject stream_options; once one has, requests go without it.
  std::atomic<bool> stream_options_rejected_{false};
};

}  // namespace hermes::internal
