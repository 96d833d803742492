#include "providers/tool_definitions.hpp"

#include <string>

namespace hermes::internal {

Result<std::vector<ToolDefinition>> read_tool_definitions(const Json& tools) {
  std::vector<ToolDefinition> out;
  if (tools.is_null()) return out;
  if (!tools.is_array()) return Status::invalid_argument("tools: must be a list");
  out.reserve(tools.size());
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Json& tool = tools[i];
    const std::string where = "tools[" + std::to_string(i) + "]";
    if (!tool.is_object()) return Status::invalid_argument(where + ": must be an object");
    auto function = tool.find("function");
    if (function != tool.end()) {
      if (!function->is_object() || !function->contains("name") ||
          !(*function)["name"].is_string()) {
        return Status::invalid_argument(where + ".function: must be an object with a name");
      }
      out.push_back({&tool, &*function, true});
    } else if (tool.contains("name") && tool["name"].is_string()) {
      out.push_back({&tool, &tool, false});
    } else {
      return Status::invalid_argument(where + ": not a function definition");
    }
  }
  return out;
}

}  // namespace hermes::internal
