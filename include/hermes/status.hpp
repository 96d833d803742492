// hermes/status.hpp — how every fallible call in hermes reports success or failure.
//
// No exception crosses the public API. A call that can fail returns a Status, or a
// Result<T> holding either a value or a Status. Provider failures additionally carry an
// ApiError (hermes/api_error.hpp) with the classification the recovery chain acts on.
#pragma once

#include "hermes/export.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace hermes {

struct ApiError;

// Status codes. The numeric values are frozen: the C ABI (hermes_c.h) exposes them as
// hermes_status_t and bindings map them to exceptions.
enum class StatusCode : int32_t {
  kOk = 0,
  kInvalidArgument = -1,    // The caller passed something malformed; the message names it.
  kNotFound = -2,           // A session, tool, file or key does not exist.
  kAlreadyExists = -3,      // A unique name or id is taken.
  kFailedPrecondition = -4, // The object is not in a state that allows the call.
  kUnavailable = -5,        // A transient failure: retrying later may succeed.
  kDeadlineExceeded = -6,   // A timeout expired.
  kCancelled = -7,          // The call was cancelled or interrupted.
  kApiError = -8,           // A model provider failed; api_error() has the details.
  kIoError = -9,            // The file system or database failed.
  kDataLoss = -10,          // Stored data is corrupt or of an unknown newer format.
  kUnimplemented = -11,     // The operation is not supported by this implementation.
  kResourceExhausted = -12, // A size, budget or quota limit was hit.
  kPermissionDenied = -13,  // A policy (approval, file guard) refused the operation.
  kInternal = -14,          // A bug in hermes; the message says where.
};

// Returns the stable lower-case name of `code`, e.g. "invalid_argument".
HERMES_API std::string_view status_code_name(StatusCode code);

// A Status is either ok or a code plus a human-readable message. Cheap to copy.
// Thread-safety: immutable after construction; safe to share between threads.
class HERMES_API Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status ok_status() { return Status(); }
  static Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status already_exists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status failed_precondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
  static Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status deadline_exceeded(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
  static Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
  static Status io_error(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status data_loss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
  static Status unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
  static Status resource_exhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
  static Status permission_denied(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
  static Status internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  // A provider failure. The ApiError is shared, so copying the Status stays cheap.
  static Status api_error(ApiError error);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // The provider error behind a kApiError status, or nullptr.
  const ApiError* api_error() const { return api_error_.get(); }

  // "ok", or "<code name>: <message>".
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::shared_ptr<const ApiError> api_error_;
};

// Result<T> holds a T or a non-ok Status.
//
// Accessing value() on an error Result is a programming error and aborts with the status
// message; check ok() first.
template <typename T>
class Result {
  static_assert(!std::is_same_v<std::decay_t<T>, Status>, "Result<Status> is meaningless");

 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  // Anything a T can be made from (a string literal for Result<std::string>, ...).
  template <typename U,
            typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                        !std::is_same_v<std::decay_t<U>, T> &&
                                        !std::is_same_v<std::decay_t<U>, Status> &&
                                        !std::is_same_v<std::decay_t<U>, Result>>>
  Result(U&& value)  // NOLINT(google-explicit-constructor)
      : data_(std::in_place_type<T>, std::forward<U>(value)) {}
  Result(Status status) : data_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    if (std::get<Status>(data_).ok()) {
      data_ = Status::internal("Result constructed from an ok Status without a value");
    }
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  // The error, or an ok Status when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(data_); }

  T& value() & { check(); return std::get<T>(data_); }
  const T& value() const& { check(); return std::get<T>(data_); }
  T&& value() && { check(); return std::get<T>(std::move(data_)); }
  T value_or(T fallback) const& { return ok() ? std::get<T>(data_) : std::move(fallback); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void check() const {
    if (!ok()) abort_on_error(std::get<Status>(data_));
  }
  [[noreturn]] static void abort_on_error(const Status& s);

  std::variant<T, Status> data_;
};

namespace detail {
[[noreturn]] HERMES_API void abort_with_status(const Status& s);
}  // namespace detail

template <typename T>
void Result<T>::abort_on_error(const Status& s) {
  detail::abort_with_status(s);
}

}  // namespace hermes

// Propagates a non-ok Status from an expression returning Status.
#define HERMES_RETURN_IF_ERROR(expr)               \
  do {                                             \
    ::hermes::Status hermes_status_tmp_ = (expr);  \
    if (!hermes_status_tmp_.ok()) return hermes_status_tmp_; \
  } while (0)
