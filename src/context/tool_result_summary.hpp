// One-line descriptions of old tool results, so pruning keeps what a tool did (the command,
// the file, the match count) while dropping its output.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// The description of one tool result, e.g.
//   [terminal] ran `npm test` -> exit 0, 47 lines output
//   [read_file] read config.py from line 1 (3,400 chars)
// `arguments` is the call's JSON text (it may not parse). Never fails: arguments of any
// shape give at worst "[<tool>] (<n> chars result)".
std::string summarize_tool_result(std::string_view tool_name, std::string_view arguments,
                                  std::string_view content);

}  // namespace hermes::internal
