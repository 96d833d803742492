// The file toolset, sharing one set of roots and guards.
#include "tools/file_tools.hpp"

#include "tools/builtin_toolsets.hpp"

namespace hermes::internal {

std::vector<ToolSpec> file_tools(const FileToolOptions& options, const ApprovalOptions& approvals) {
  auto env = std::make_shared<const FileToolEnv>(options, approvals);
  return {read_file_tool(env), write_file_tool(env), patch_tool(env), search_files_tool(env)};
}

}  // namespace hermes::internal
