// The terminal toolset: terminal and process_manage.
#pragma once

#include <optional>
#include <string>

#include "hermes/builtin_tools.hpp"

namespace hermes::internal {

// Where an agent's background processes are kept in its ToolSessionState.
constexpr const char* kBackgroundProcessesKey = "terminal.background_processes";

ToolSpec terminal_tool(const TerminalOptions& options, const ApprovalOptions& approvals);
ToolSpec process_manage_tool(const TerminalOptions& options);

// What a non-zero exit code of `program` usually means (grep 1: no matches), if known.
std::optional<std::string> exit_code_meaning(const std::string& program, int code);

}  // namespace hermes::internal
