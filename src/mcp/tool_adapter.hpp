// Turning the tools a server lists into hermes tool specifications: names, schemas,
// filters, annotations. Pure functions; the handler is attached by the caller.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/mcp.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// The result budget of MCP tools, in characters: a longer result is saved to a file and
// the model gets a preview (tools/result_budget.hpp).
inline constexpr std::size_t kMcpResultBudgetChars = 50'000;

// "mcp_<server>_<tool>", each part with every character outside [A-Za-z0-9_] replaced by
// '_'. Names longer than 64 characters are cut and end in a hash of the full name, so two
// long names stay distinct.
std::string mcp_tool_name(std::string_view server, std::string_view tool);

// "mcp-<server>".
std::string mcp_toolset_name(std::string_view server);

// An inputSchema ready for the registry: missing means "no arguments", a missing
// "properties" is added. InvalidArgument, naming the problem, for a schema a model
// provider would reject (not an object, a non-object type, malformed properties or
// required).
Result<Json> normalize_input_schema(const Json& schema);

// One server tool that passed the checks and filters.
struct McpToolEntry {
  std::string name;      // The hermes name.
  std::string mcp_name;  // The server's name.
  std::string description;
  Json parameters;
  bool destructive = false;  // annotations.destructiveHint == true.
};

struct McpToolSelection {
  std::vector<McpToolEntry> tools;
  std::vector<std::string> skipped;  // "<tool>: <reason>" for invalid tools (not filtered ones).
};

// Checks every listed tool and applies the include/exclude filters of `config`.
McpToolSelection select_tools(const McpServerConfig& config, const std::vector<Json>& listed);

}  // namespace hermes::internal
