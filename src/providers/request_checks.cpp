#include "providers/request_checks.hpp"

#include <cmath>

namespace hermes::internal {

Status check_request(const ProviderRequest& request, std::string_view model) {
  if (model.empty()) return Status::invalid_argument("model: empty");
  if (request.messages.empty()) return Status::invalid_argument("messages: empty");
  if (request.max_tokens && *request.max_tokens <= 0) {
    return Status::invalid_argument("max_tokens: must be positive");
  }
  if (request.temperature && !std::isfinite(*request.temperature)) {
    return Status::invalid_argument("temperature: must be a finite number");
  }
  if (!request.extra_body.is_null() && !request.extra_body.is_object()) {
    return Status::invalid_argument("extra_body: must be an object");
  }
  return {};
}

}  // namespace hermes::internal
