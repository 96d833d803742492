// The transcript repairs the agent applies, for callers that keep or edit histories
// themselves: each takes and returns OpenAI-format messages (lists of dicts).
#include <pybind11/stl.h>

#include "json_convert.hpp"
#include "py_common.hpp"
#include "hermes/message_utils.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// Applies a repair that works on a JSON message list; a list that is not one raises.
py::object repaired(const py::handle& messages, Result<Json> (*repair)(const Json&)) {
  Json in = from_python(messages, "messages");
  Result<Json> out = repair(in);
  if (!out.ok()) raise_status(out.status());
  return to_python(*out);
}

// The UTF-8 bytes of a str, lone surrogates included (encoded as such, so that the
// repair can find and replace them): a plain conversion would refuse them.
std::string text_with_surrogates(const py::str& text) {
  py::object bytes = py::reinterpret_steal<py::object>(
      PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
  if (!bytes) throw py::error_already_set();
  return bytes.cast<std::string>();
}

}  // namespace

void register_message_utils(py::module_& m) {
  m.def(
      "sanitize_api_messages",
      [](const py::handle& messages) {
        return repaired(messages, [](const Json& j) { return sanitize_api_messages(j); });
      },
      py::arg("messages"),
      R"doc(A copy of `messages` ready for the wire, as the agent sends them.

Messages of roles no provider accepts are dropped; api_content replaces content; hermes's
bookkeeping (timestamp, display_kind, finish_reason, private keys with a leading "_") goes;
orphan tool results are dropped and missing ones stubbed; thinking-only assistant turns
and empty user messages are dropped and the user messages around them merged; content is
whitespace-stripped; tool-call arguments are repaired and re-serialised with sorted keys;
invalid UTF-8 and lone surrogates become U+FFFD. `messages` itself is not modified.)doc");
  m.def(
      "repair_message_sequence",
      [](const py::handle& messages) {
        return repaired(messages, [](const Json& j) { return repair_message_sequence(j); });
      },
      py::arg("messages"),
      "`messages` without tool results that answer no call, messages of unknown roles or "
      "empty user messages, with consecutive user messages merged.");
  m.def(
      "drop_thinking_only_and_merge_users",
      [](const py::handle& messages) {
        return repaired(messages,
                        [](const Json& j) { return drop_thinking_only_and_merge_users(j); });
      },
      py::arg("messages"),
      "`messages` without thinking-only assistant turns or empty user messages, the user "
      "messages they separated merged.");
  m.def(
      "is_thinking_only_assistant",
      [](const py::handle& message) {
        Result<bool> out = is_thinking_only_assistant(from_python(message, "message"));
        if (!out.ok()) raise_status(out.status());
        return *out;
      },
      py::arg("message"),
      "Whether an assistant message has reasoning but no visible text and no tool calls.");
  m.def(
      "sanitize_surrogates",
      [](const py::str& text) { return sanitize_surrogates(text_with_surrogates(text)); },
      py::arg("text"), "`text` with invalid UTF-8 and lone surrogates replaced by U+FFFD.");
  m.def(
      "repair_tool_call_arguments",
      [](const py::object& raw) {
        // Anything but text is as good as no arguments.
        if (!py::isinstance<py::str>(raw)) return std::string("{}");
        return repair_tool_call_arguments(sanitize_surrogates(text_with_surrogates(py::str(raw))));
      },
      py::arg("raw"),
      R"doc(Tool-call argument text a provider will parse, from what a model produced.

Valid JSON is returned as given; raw control characters in strings are escaped, trailing
commas removed, brackets a truncation left open closed in order, surplus closers trimmed.
Empty text, None, "None", text cut inside a string and anything past repair give "{}".)doc");
  m.def(
      "close_interrupted_tool_sequence",
      [](const py::handle& messages, const py::object& final_response) {
        const std::string text =
            py::isinstance<py::str>(final_response) ? final_response.cast<std::string>() : "";
        Result<Json> out = close_interrupted_tool_sequence(from_python(messages, "messages"), text);
        if (!out.ok()) raise_status(out.status());
        return to_python(*out);
      },
      py::arg("messages"), py::arg("final_response") = py::none(),
      R"doc(A copy of `messages` closed with an assistant turn when it ends on a tool result.

The turn's text is `final_response` (trimmed) or "Operation interrupted."; a list that does
not end on a tool result comes back unchanged. `messages` itself is not modified.)doc");
  m.def(
      "sanitize_messages_surrogates",
      [](const py::handle& messages) {
        return repaired(messages, [](const Json& j) { return sanitize_messages_surrogates(j); });
      },
      py::arg("messages"),
      "A copy of `messages` with lone surrogates and invalid UTF-8 in every string (content, "
      "parts, names, tool call ids and arguments, nested fields) replaced by U+FFFD.");
  m.def(
      "coerce_tool_name",
      [](const std::string& name, const std::vector<std::string>& available) -> py::object {
        std::optional<std::string> out = coerce_tool_name(name, available);
        return out ? py::object(py::str(*out)) : py::object(py::none());
      },
      py::arg("name"), py::arg("available"),
      "The available tool a model meant by `name` (case, separators, legacy names, a "
      "'_tool' suffix, then the closest name at 0.7 similarity), or None.");
  m.def(
      "normalize_finish_reason",
      [](const std::string& value) { return normalize_finish_reason(value); }, py::arg("value"),
      "A provider's finish reason as one of stop, length, tool_calls, content_filter, "
      "incomplete or error (unknown values lower-cased).");
}

}  // namespace hermes::python
