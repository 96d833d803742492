// hermes/todo.hpp — the session task list kept by the todo_list tool, as the context
// engine sees it.
#pragma once

#include <optional>
#include <string>

#include "hermes/export.hpp"
#include "hermes/tool.hpp"

namespace hermes {

// The active items of the agent's task list (pending and in progress, with the ancestors
// of active items), rendered under the line
//   [Your active task list was preserved across context compression]
// as "<indent>- <marker> <id>. <content> (<status>)" lines. A context engine appends it
// as a user message after compressing, so the plan survives the summary. nullopt when no
// item is active (completed work is left out on purpose: models redo what they re-read).
//
// `state` is the agent's ToolSessionState. Thread-safe.
HERMES_API std::optional<std::string> render_todo_snapshot(ToolSessionState& state);

}  // namespace hermes
