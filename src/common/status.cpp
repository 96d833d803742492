#include "hermes/status.hpp"

#include <cstdio>
#include <cstdlib>

#include "hermes/api_error.hpp"

namespace hermes {

std::string_view status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kNotFound: return "not_found";
    case StatusCode::kAlreadyExists: return "already_exists";
    case StatusCode::kFailedPrecondition: return "failed_precondition";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kDeadlineExceeded: return "deadline_exceeded";
    case StatusCode::kCancelled: return "cancelled";
    case StatusCode::kApiError: return "api_error";
    case StatusCode::kIoError: return "io_error";
    case StatusCode::kDataLoss: return "data_loss";
    case StatusCode::kUnimplemented: return "unimplemented";
    case StatusCode::kResourceExhausted: return "resource_exhausted";
    case StatusCode::kPermissionDenied: return "permission_denied";
    case StatusCode::kInternal: return "internal";
  }
  return "unknown";
}

Status Status::api_error(ApiError error) {
  Status s(StatusCode::kApiError, error.to_string());
  s.api_error_ = std::make_shared<const ApiError>(std::move(error));
  return s;
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  std::string out(status_code_name(code_));
  out += ": ";
  out += message_;
  return out;
}

namespace detail {
void abort_with_status(const Status& s) {
  std::fprintf(stderr, "hermes: value() called on an error Result: %s\n", s.to_string().c_str());
  std::abort();
}
}  // namespace detail

}  // namespace hermes
