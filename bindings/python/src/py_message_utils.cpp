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

api_content replaces content; private keys (leading "_") go; orphan tool results are
dropped and missing ones stubbed; thinking-only assistant turns are dropped and the user
messages around them merged; content is whitespace-stripped; tool-call arguments are
re-serialised with sorted keys; invalid UTF-8 and lone surrogates become U+FFFD.)doc");
  m.def(
      "repair_message_sequence",
      [](const py::handle& messages) {
        return repaired(messages, [](const Json& j) { return repair_message_sequence(j); });
      },
      py::arg("messages"),
      "`messages` without tool results that answer no call, with consecutive plain-text "
      "user messages merged.");
  m.def(
      "drop_thinking_only_and_merge_users",
      [](const py::handle& messages) {
        return repaired(messages,
                        [](const Json& j) { return drop_thinking_only_and_merge_users(j); });
      },
      py::arg("messages"),
      "`messages` without thinking-only assistant turns, the user messages they separated "
      "merged.");
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
