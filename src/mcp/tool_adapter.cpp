#include "mcp/tool_adapter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/fnv1a.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxToolName = 64;

std::string sanitize_component(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!keep) c = '_';
  }
  return out;
}

bool passes_filters(const McpServerConfig& config, const std::string& tool) {
  if (!config.include_tools.empty()) return list_contains(config.include_tools, tool);
  return !list_contains(config.exclude_tools, tool);
}

}  // namespace

std::string mcp_tool_name(std::string_view server, std::string_view tool) {
  std::string name = "mcp_" + sanitize_component(server) + "_" + sanitize_component(tool);
  if (name.size() <= kMaxToolName) return name;
  const std::string suffix = fmt::format("_{:08x}", fnv1a32(name));
  return name.substr(0, kMaxToolName - suffix.size()) + suffix;
}

std::string mcp_toolset_name(std::string_view server) {
  return "mcp-" + std::string(server);
}

Result<Json> normalize_input_schema(const Json& schema) {
  if (schema.is_null()) return Json{{"type", "object"}, {"properties", Json::object()}};
  if (!schema.is_object()) return Status::invalid_argument("inputSchema is not a JSON object");
  Json out = schema;
  if (auto type = out.find("type"); type != out.end()) {
    if (!type->is_string() || type->get<std::string>() != "object") {
      return Status::invalid_argument("inputSchema type is " + type->dump() + ", not \"object\"");
    }
  } else {
    out["type"] = "object";
  }
  if (auto props = out.find("properties"); props == out.end()) {
    out["properties"] = Json::object();
  } else if (!props->is_object()) {
    return Status::invalid_argument("inputSchema properties is not an object");
  }
  if (auto required = out.find("required"); required != out.end()) {
    const bool strings =
        required->is_array() && std::all_of(required->begin(), required->end(),
                                            [](const Json& r) { return r.is_string(); });
    if (!strings)
      return Status::invalid_argument("inputSchema required is not an array of strings");
  }
  return out;
}

McpToolSelection select_tools(const McpServerConfig& config, const std::vector<Json>& listed) {
  McpToolSelection selection;
  std::set<std::string> taken;
  for (const Json& tool : listed) {
    const std::string mcp_name = tool.is_object() ? string_member(tool, "name") : "";
    if (mcp_name.empty()) {
      selection.skipped.push_back("(unnamed): the tool has no name");
      continue;
    }
    if (!passes_filters(config, mcp_name)) continue;
    Result<Json> schema = normalize_input_schema(tool.value("inputSchema", Json()));
    if (!schema.ok()) {
      selection.skipped.push_back(mcp_name + ": " + schema.status().message());
      continue;
    }
    McpToolEntry entry;
    entry.mcp_name = mcp_name;
    entry.name = mcp_tool_name(config.name, mcp_name);
    if (!taken.insert(entry.name).second) {
      selection.skipped.push_back(mcp_name + ": its hermes name '" + entry.name +
                                  "' is taken by another tool of the server");
      continue;
    }
    entry.description = string_member(tool, "description");
    if (entry.description.empty())
      entry.description = "MCP tool " + mcp_name + " from " + config.name;
    entry.parameters = std::move(*schema);
    if (auto annotations = tool.find("annotations");
        annotations != tool.end() && annotations->is_object()) {
      auto hint = annotations->find("destructiveHint");
      entry.destructive = hint != annotations->end() && hint->is_boolean() && hint->get<bool>();
    }
    selection.tools.push_back(std::move(entry));
  }
  return selection;
}

}  // namespace hermes::internal
