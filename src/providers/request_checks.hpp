// The checks every wire format makes on a ProviderRequest before building its body.
#pragma once

#include <string_view>

#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// InvalidArgument naming the field when `model` is empty, there are no messages,
// max_tokens is not positive, temperature is not finite or extra_body is not an object.
Status check_request(const ProviderRequest& request, std::string_view model);

}  // namespace hermes::internal
