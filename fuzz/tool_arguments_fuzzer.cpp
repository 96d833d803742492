// Model-produced tool calls as the turn loop handles them: the arguments text is parsed
// (blank means {}), an object is coerced to the tool's JSON Schema, and the tool name is
// mapped onto an offered one.
//
// Input: `schema NUL arguments`, or only `arguments` (checked against a built-in schema
// that uses every type the coercion knows). Schemas come from embedders (the C ABI takes
// them as text), so a malformed schema is as fair an input as malformed arguments.
//
// Invariants: nothing throws; coercion keeps exactly the keys it was given and returns an
// object whose JSON text parses again; a repaired tool name is one of those offered.
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/message_utils.hpp"
#include "tools/argument_coercion.hpp"

namespace {

using hermes::Json;
using hermes::fuzz::require;

const Json& builtin_schema() {
  static const Json schema = Json::parse(R"({
    "type": "object",
    "properties": {
      "count": {"type": "integer"},
      "ratio": {"type": "number"},
      "flag": {"type": "boolean"},
      "tags": {"type": "array", "items": {"type": "integer"}},
      "options": {"type": "object", "properties": {"depth": {"type": "integer"}}},
      "maybe": {"type": ["integer", "null"]},
      "either": {"anyOf": [{"type": "boolean"}, {"type": "number"}]},
      "nested": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
      "text": {"type": "string"}
    }
  })");
  return schema;
}

const std::vector<std::string>& offered_tools() {
  static const std::vector<std::string> tools = {
      "terminal", "read_file", "write_file", "patch", "search_files", "todo_list",
      "memory", "session_search", "clarify", "skill_view", "process"};
  return tools;
}

void check_coercion(const Json& schema, std::string_view arguments) {
  const bool blank = arguments.find_first_not_of(" \t\r\n") == std::string_view::npos;
  const std::string_view text = blank ? std::string_view("{}") : arguments;
  std::optional<Json> parsed = hermes::internal::parse_json(text);
  if (!parsed || !parsed->is_object()) return;  // Answered with an error, never coerced.
  const Json coerced = hermes::internal::coerce_tool_arguments(schema, *parsed);
  require(coerced.is_object(), "coerced arguments are not an object");
  require(coerced.size() == parsed->size(), "coercion changed the number of arguments");
  for (auto it = parsed->begin(); it != parsed->end(); ++it) {
    require(coerced.contains(it.key()), "coercion lost an argument", it.key());
  }
  const std::string dumped = hermes::internal::dump_json(coerced);
  require(hermes::internal::parse_json(dumped).has_value(), "coerced JSON does not parse", dumped);
}

void check_name(std::string_view name) {
  const auto repaired = hermes::coerce_tool_name(name, offered_tools());
  if (!repaired) return;
  bool offered = false;
  for (const auto& tool : offered_tools()) offered = offered || tool == *repaired;
  require(offered, "a repaired tool name that was not offered", *repaired);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = hermes::fuzz::as_text(data, size);
  hermes::fuzz::no_throw("tool call arguments", [&] {
    const std::size_t nul = input.find('\0');
    std::optional<Json> schema;
    std::string_view arguments = input;
    if (nul != std::string_view::npos) {
      schema = hermes::internal::parse_json(input.substr(0, nul));
      arguments = input.substr(nul + 1);
    }
    check_coercion(schema ? *schema : builtin_schema(), arguments);
    check_name(arguments.substr(0, arguments.find('\n')));
  });
  return 0;
}
