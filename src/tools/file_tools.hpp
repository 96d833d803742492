// The file toolset: read_file, write_file, patch and search_files.
#pragma once

#include <memory>
#include <string>

#include "hermes/tool.hpp"
#include "tools/file_tool_env.hpp"

namespace hermes::internal {

ToolSpec read_file_tool(std::shared_ptr<const FileToolEnv> env);
ToolSpec write_file_tool(std::shared_ptr<const FileToolEnv> env);
ToolSpec patch_tool(std::shared_ptr<const FileToolEnv> env);
ToolSpec search_files_tool(std::shared_ptr<const FileToolEnv> env);

// Records that the agent knows the current contents of `path` (it read or wrote it).
void remember_file_contents(ToolContext& ctx, const std::string& path);

// A unified diff (3 lines of context) of `before` -> `after`, headed a/<name>, b/<name>.
// Empty when nothing changed.
std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& name);

}  // namespace hermes::internal
