#include "providers/provider_call.hpp"

#include <optional>

#include "common/fiber.hpp"
#include "providers/anthropic_messages.hpp"
#include "providers/openai_chat.hpp"
#include "providers/openai_responses.hpp"

namespace hermes::internal {
namespace {

bool waits_on_the_loop(const Provider& provider) {
  return dynamic_cast<const OpenAiChatProvider*>(&provider) ||
         dynamic_cast<const OpenAiResponsesProvider*>(&provider) ||
         dynamic_cast<const AnthropicMessagesProvider*>(&provider);
}

}  // namespace

Result<ProviderResponse> call_provider(Provider& provider, const ProviderRequest& request,
                                       const CallContext& context) {
  if (!Fiber::current() || waits_on_the_loop(provider)) return provider.complete(request, context);
  std::optional<Result<ProviderResponse>> result;
  run_blocking([&] { result.emplace(provider.complete(request, context)); });
  return std::move(*result);
}

}  // namespace hermes::internal
