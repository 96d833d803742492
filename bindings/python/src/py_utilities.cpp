// The library's pure helpers: the provider error classifier (for callers that run their
// own model calls and want the agent's decisions), model context windows, dangerous
// command detection, secret redaction and token estimates.
#include <pybind11/stl.h>

#include "json_convert.hpp"
#include "py_common.hpp"
#include "hermes/api_error.hpp"
#include "hermes/model_metadata.hpp"
#include "hermes/redaction.hpp"
#include "hermes/safety.hpp"
#include "hermes/token_estimate.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

TransportFailure transport_from_name(const std::string& name) {
  if (auto failure = parse_transport_failure(name)) return *failure;
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

py::dict classify(const py::object& status_code, const std::string& message, const py::object& body,
                  const std::string& transport, const std::string& provider,
                  const std::string& model, int64_t approx_tokens, int64_t context_length,
                  int64_t num_messages, const py::object& retry_after) {
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
  if (!retry_after.is_none()) facts.retry_after_seconds = retry_after.cast<double>();

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
  out["error_context"] = to_python(error.error_context);
  out["billing_unverified"] = error.billing_unverified();
  out["retry_after"] = error.retry_after_seconds ? py::object(py::float_(*error.retry_after_seconds))
                                                 : py::object(py::none());
  return out;
}

}  // namespace

int64_t context_length(const std::string& model, const std::string& base_url, const std::string& provider,
                       const py::object& config_context_length, const py::object& api_key,
                       const py::object& home) {
  std::optional<int64_t> override_length;
  if (!config_context_length.is_none()) override_length = config_context_length.cast<int64_t>();
  ContextLengthOptions options;
  if (!api_key.is_none()) options.api_key = api_key.cast<std::string>();
  if (!home.is_none()) options.home = py::str(home);
  py::gil_scoped_release release;  // May ask the endpoint.
  return get_model_context_length(model, base_url, provider, override_length, options);
}

// (found, description or None): the shape of upstream's check, which callers unpack.
py::tuple finding_tuple(const CommandFinding& finding) {
  if (!finding.found) return py::make_tuple(false, py::none());
  return py::make_tuple(true, finding.description);
}

py::tuple dangerous_check(const std::string& command) {
  // A hardline command is dangerous too; its own description says why.
  const CommandFinding hardline = detect_hardline_command(command);
  return finding_tuple(hardline.found ? hardline : detect_dangerous_command(command));
}

void register_utilities(py::module_& m) {
  m.def("classify_api_error", &classify, py::kw_only(), py::arg("status_code") = py::none(),
        py::arg("message") = "", py::arg("body") = py::none(), py::arg("transport") = "",
        py::arg("provider") = "", py::arg("model") = "", py::arg("approx_tokens") = 0,
        py::arg("context_length") = 0, py::arg("num_messages") = 0,
        py::arg("retry_after") = py::none(),
        R"doc(Classifies a failed model call the way the agent does.

Returns a dict: reason (the failover reason name, e.g. "rate_limit", "context_overflow"),
retryable, should_compress, should_rotate_credential, should_fallback, error_context (a
dict: "upstream_provider", "billing_unverified", "possible_content_filter" when they
apply), billing_unverified, and status_code, message, error_code and retry_after as read
from the inputs. `retry_after` is the response's Retry-After in seconds, if any. `body` may be the response
text or its parsed JSON; `transport` is "", "timeout", "connect", "ssl" or "disconnect".)doc");
  m.def(
      "parse_context_limit_from_error",
      [](const std::string& message) -> std::optional<int64_t> {
        return parse_context_limit_from_error(message);
      },
      py::arg("message"),
      "The context window an error message states (\"maximum context length is 8192 tokens\"), "
      "or None.");
  m.def("get_model_context_length", &context_length, py::arg("model"), py::arg("base_url") = "",
        py::arg("provider") = "", py::arg("config_context_length") = py::none(), py::kw_only(),
        py::arg("api_key") = py::none(), py::arg("home") = py::none(),
        R"doc(The context window of `model` in tokens.

The first source that answers wins: `config_context_length`, the cache in <home>, the
endpoint at `base_url` (its /models list, llama.cpp's /props, Ollama's /api/show), the
built-in model table, then 256000. Never raises for an unknown model or a dead endpoint.)doc");
  m.def("detect_dangerous_command", &dangerous_check, py::arg("command"),
        "(dangerous, description or None) for a shell command: whether it needs approval "
        "before it runs, and why.");
  m.def(
      "detect_hardline_command",
      [](const std::string& command) { return finding_tuple(detect_hardline_command(command)); },
      py::arg("command"),
      "(hardline, description or None): a command refused whatever the approval (wiping a "
      "disk, a fork bomb).");
  m.def(
      "redact_sensitive_text", [](const std::string& text) { return redact_sensitive_text(text); },
      py::arg("text"), "`text` with API keys, tokens and other secrets masked.");
  m.def(
      "estimate_tokens_rough", [](const std::string& text) { return estimate_tokens_rough(text); },
      py::arg("text"), "A rough token count (about four characters per token).");
  m.def(
      "estimate_messages_tokens_rough",
      [](const py::handle& messages) {
        return estimate_messages_tokens_rough(from_python(messages, "messages"));
      },
      py::arg("messages"),
      "A rough token count of chat message dicts as they would be sent: tool calls "
      "included, private keys left out, each image at a flat 1,600 tokens.");
}

}  // namespace hermes::python
