// hermes.classify_api_error and hermes.parse_context_limit_from_error: the provider error
// classifier, for callers that run their own model calls and want the agent's decisions.
#include <pybind11/stl.h>

#include "json_convert.hpp"
#include "py_common.hpp"
#include "hermes/api_error.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

TransportFailure transport_from_name(const std::string& name) {
  if (name.empty() || name == "none") return TransportFailure::kNone;
  if (name == "timeout") return TransportFailure::kTimeout;
  if (name == "connect") return TransportFailure::kConnect;
  if (name == "ssl") return TransportFailure::kSsl;
  if (name == "disconnect") return TransportFailure::kDisconnect;
  throw py::value_error("transport must be '', 'timeout', 'connect', 'ssl' or 'disconnect', not '" +
                        name + "'");
}

// The body as the classifier reads it: text as given, dicts and lists as JSON.
std::string body_text(const py::object& body) {
  if (body.is_none()) return {};
  if (py::isinstance<py::str>(body)) return body.cast<std::string>();
  if (py::isinstance<py::bytes>(body)) return body.cast<std::string>();
  return from_python(body, "body").dump();
}

py::dict classify(const py::object& status_code, const std::string& message,
                  const py::object& body, const std::string& transport,
                  const std::string& provider, const std::string& model, int64_t approx_tokens,
                  int64_t context_length, int64_t num_messages) {
  ApiErrorFacts facts;
  facts.http_status = status_code.is_none() ? 0 : status_code.cast<int>();
  facts.message = message;
  facts.body = body_text(body);
  facts.transport = transport_from_name(transport);
  facts.provider = provider;
  facts.model = model;
  facts.approx_tokens = approx_tokens;
  // 0 means "unknown": the classifier's own default applies.
  if (context_length > 0) facts.context_length = context_length;
  facts.num_messages = num_messages;

  const ApiError error = [&] {
    py::gil_scoped_release release;
    return classify_api_error(facts);
  }();
  py::dict out;
  out["reason"] = std::string(failover_reason_name(error.reason));
  out["retryable"] = error.retryable;
  out["should_compress"] = error.should_compress;
  out["should_rotate_credential"] = error.should_rotate_credential;
  out["should_fallback"] = error.should_fallback;
  out["status_code"] = error.http_status == 0 ? py::object(py::none()) : py::int_(error.http_status);
  out["message"] = error.message;
  out["error_code"] = error.error_code;
  out["retry_after"] = error.retry_after_seconds ? py::object(py::float_(*error.retry_after_seconds))
                                                 : py::object(py::none());
  return out;
}

}  // namespace

void register_errors(py::module_& m) {
  m.def("classify_api_error", &classify, py::kw_only(), py::arg("status_code") = py::none(),
        py::arg("message") = "", py::arg("body") = py::none(), py::arg("transport") = "",
        py::arg("provider") = "", py::arg("model") = "", py::arg("approx_tokens") = 0,
        py::arg("context_length") = 0, py::arg("num_messages") = 0,
        R"doc(Classifies a failed model call the way the agent does.

Returns a dict: reason (the failover reason name, e.g. "rate_limit", "context_overflow"),
retryable, should_compress, should_rotate_credential, should_fallback, and status_code,
message, error_code and retry_after as read from the inputs. `body` may be the response
text or its parsed JSON; `transport` is "", "timeout", "connect", "ssl" or "disconnect".)doc");
  m.def(
      "parse_context_limit_from_error",
      [](const std::string& message) -> std::optional<int64_t> {
        return parse_context_limit_from_error(message);
      },
      py::arg("message"),
      "The context window an error message states (\"maximum context length is 8192 tokens\"), "
      "or None.");
}

}  // namespace hermes::python
