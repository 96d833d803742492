// One model call from a turn. The built-in providers wait for their HTTP transfer on the
// runtime's I/O loop when the turn runs on one (HttpClient parks the turn's fiber); a
// provider of the caller's own may block however it likes, so on a fiber it runs on a
// worker thread instead of holding the loop.
#pragma once

#include "hermes/provider.hpp"

namespace hermes::internal {

// provider.complete(request, context), on a worker when the turn is a fiber and the
// provider is not one of the built-in ones.
Result<ProviderResponse> call_provider(Provider& provider, const ProviderRequest& request,
                                       const CallContext& context);

}  // namespace hermes::internal
