// One model call from a turn or from a compaction. The built-in providers wait for their
// HTTP transfer on the runtime's I/O loop when the turn runs on one (HttpClient parks the
// turn's fiber); a provider of the caller's own may block however it likes, so on a fiber
// it runs on a worker thread instead of holding the loop.
#pragma once

#include "hermes/provider.hpp"

namespace hermes::internal {

// The base of the providers whose complete() may run on a fiber: everything they wait
// for parks the fiber rather than blocking its thread.
class LoopAwareProvider : public Provider {};

// provider.complete(request, context), on a worker when the caller is a fiber and the
// provider is not a LoopAwareProvider.
Result<ProviderResponse> call_provider(Provider& provider, const ProviderRequest& request,
                                       const CallContext& context);

}  // namespace hermes::internal
