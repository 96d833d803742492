// The Responses API provider (codex_responses mode): OpenAI's POST {base}/responses, the
// ChatGPT Codex backend, xAI, GitHub Copilot, Azure and Responses-compatible servers.
#pragma once

#include <string>
#include <vector>

#include "common/provider_call.hpp"
#include "hermes/provider.hpp"
#include "providers/responses_request_builder.hpp"

namespace hermes::internal {

// Thread-safety: complete() may run on many threads at once.
class OpenAiResponsesProvider final : public LoopAwareProvider {
 public:
  // `config` must have passed make_provider's validation.
  explicit OpenAiResponsesProvider(ProviderConfig config);

  const ProviderInfo& info() const override { return info_; }
  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& context) override;

 private:
  Result<std::vector<std::string>> headers(const CallContext& context, bool stream) const;

  ProviderConfig config_;
  ProviderInfo info_;
  ResponsesDialect dialect_;
  std::string url_;
};

}  // namespace hermes::internal
