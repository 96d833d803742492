#include "common/provider_call.hpp"

#include <optional>

#include "common/fiber.hpp"

namespace hermes::internal {

Result<ProviderResponse> call_provider(Provider& provider, const ProviderRequest& request,
                                       const CallContext& context) {
  if (!Fiber::current() || dynamic_cast<const LoopAwareProvider*>(&provider)) {
    return provider.complete(request, context);
  }
  std::optional<Result<ProviderResponse>> result;
  run_blocking([&] { result.emplace(provider.complete(request, context)); });
  return std::move(*result);
}

}  // namespace hermes::internal
