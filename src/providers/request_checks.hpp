// The checks every wire format makes on a ProviderRequest before building its body.
#pragma once

#include <string_view>

#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// InvalidArgument naming the field when `model` is empty, there are no messages,
// max_tokens is not positive, temperature is not finite or extra_body is not an object.
Status check_request(const ProviderRequest& request, std::string_view model);

// extra_body replaces the messages: the body is built whole, not spliced from kept
// encodings.
inline bool messages_overridden(const ProviderRequest& request) {
  return request.extra_body.is_object() && request.extra_body.contains("messages");
}

}  // namespace hermes::internal
