// The terminal toolset: terminal and process_manage.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "hermes/builtin_tools.hpp"

namespace hermes::internal {

// Where an agent's background processes are kept in its ToolSessionState.
constexpr const char* kBackgroundProcessesKey = "terminal.background_processes";

class ApprovalGate;

// Both tools share one gate: what reaches a background process's stdin is checked like a
// command line, under the same approval mode.
ToolSpec terminal_tool(const TerminalOptions& options, std::shared_ptr<const ApprovalGate> gate);
ToolSpec process_manage_tool(const TerminalOptions& options,
                             std::shared_ptr<const ApprovalGate> gate);

// What a non-zero exit code of `program` usually means (grep 1: no matches), if known.
std::optional<std::string> exit_code_meaning(const std::string& program, int code);

}  // namespace hermes::internal
