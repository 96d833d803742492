#include "agent/structured_output.hpp"

#include <algorithm>

#include "common/json_schema_check.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

bool is_output_tool(const Json& tool, const std::string& name) {
  return tool.is_object() && tool.contains("function") && tool["function"].is_object() &&
         tool["function"].value("name", "") == name;
}

// The text between a ```json (or ```) fence, when the whole answer is one fenced block.
std::string_view unfenced(std::string_view text) {
  text = trim_ascii(text);
  if (text.size() < 6 || !starts_with(text, "```") || !ends_with(text, "```")) return text;
  const std::string_view inner = text.substr(3, text.size() - 6);
  const auto newline = inner.find('\n');
  return newline == std::string_view::npos ? text : inner.substr(newline + 1);
}

}  // namespace

Status check_output_options(const AgentOptions::Output& output) {
  if (output.schema.is_null()) return {};
  HERMES_RETURN_IF_ERROR(check_schema(output.schema, "output.schema"));
  if (!valid_name(output.name)) {
    return Status::invalid_argument("output.name: 1 to 64 letters, digits, '_' or '-', got '" +
                                    output.name + "'");
  }
  return {};
}

bool answers_by_tool(const AgentOptions::Output& output, std::string_view api_mode) {
  return !output.schema.is_null() && api_mode == kApiModeAnthropic;
}

void apply_output_schema(const AgentOptions::Output& output, std::string_view api_mode,
                         ProviderRequest& request) {
  if (output.schema.is_null()) return;
  // What an earlier attempt put on the request.
  if (request.extra_body.is_object()) {
    for (const char* key : {"response_format", "text", "tool_choice"})
      request.extra_body.erase(key);
  }
  if (request.tools.is_array()) {
    auto& tools = request.tools;
    tools.erase(std::remove_if(tools.begin(), tools.end(),
                               [&](const Json& t) { return is_output_tool(t, output.name); }),
                tools.end());
  }
  if (!request.extra_body.is_object()) request.extra_body = Json::object();
  if (api_mode == kApiModeAnthropic) {
    if (!request.tools.is_array()) request.tools = Json::array();
    request.tools.push_back(
        {{"type", "function"},
         {"function",
          {{"name", output.name},
           {"description",
            "Give the final answer with this tool, once the task is done. Its arguments are "
            "the answer."},
           {"parameters", output.schema}}}});
    request.extra_body["tool_choice"] = {{"type", "any"}};
  } else if (api_mode == kApiModeResponses) {
    request.extra_body["text"] = {{"format",
                                   {{"type", "json_schema"},
                                    {"name", output.name},
                                    {"schema", output.schema},
                                    {"strict", true}}}};
  } else {
    request.extra_body["response_format"] = {
        {"type", "json_schema"},
        {"json_schema", {{"name", output.name}, {"schema", output.schema}, {"strict", true}}}};
  }
}

CheckedAnswer check_answer(std::string_view text, const Json& schema) {
  const std::string_view body = unfenced(text);
  Json value;
  try {
    value = Json::parse(body.begin(), body.end());
  } catch (const std::exception&) {
    return {std::nullopt, "the answer is not valid JSON"};
  }
  if (auto problem = schema_violation(value, schema)) return {std::nullopt, *problem};
  return {std::move(value), ""};
}

std::string repair_prompt(const std::string& problem) {
  return "Your answer does not match the required JSON schema: " + problem +
         ". Answer again with only the corrected JSON value, matching the schema.";
}

}  // namespace hermes::internal
