// The tool specs of each built-in toolset, assembled by register_builtin_tools.
#pragma once

#include <vector>

#include "hermes/builtin_tools.hpp"

namespace hermes::internal {

std::vector<ToolSpec> todo_tools();
std::vector<ToolSpec> clarify_tools();
std::vector<ToolSpec> delegation_tools();
std::vector<ToolSpec> memory_tools(const MemoryLimits& limits);
std::vector<ToolSpec> skills_tools(const SkillsOptions& options);
// `options.root` must already be resolved to an absolute directory. `approvals` decide
// writes that need a human (~/.ssh/config).
std::vector<ToolSpec> file_tools(const FileToolOptions& options, const ApprovalOptions& approvals);
std::vector<ToolSpec> terminal_tools(const TerminalOptions& options,
                                     const ApprovalOptions& approvals);

}  // namespace hermes::internal
