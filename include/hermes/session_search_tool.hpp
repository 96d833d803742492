// hermes/session_search_tool.hpp — the session_search tool: the model's recall of past
// conversations kept in the session store.
#pragma once

#include "hermes/export.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"

namespace hermes {

// Registers "session_search" in toolset "session_search". The tool reads the agent's
// store (ToolContext::store) through its public search and read API and never calls a
// model. Its mode follows from the arguments: `query` discovers matching past sessions
// (one result per lineage, the best with a window of messages around the match and the
// conversation's first and last turns); `session_id` with `around_message_id` scrolls a
// window; `session_id` alone reads a session; no arguments browses recent sessions.
// Sub-agent, tool and kanban sessions are never shown, and hits from the current
// session's own lineage are skipped unless they left its live context (archived by
// compaction, or in a session closed by compression or a reset).
HERMES_API Status register_session_search_tool(ToolRegistry& registry);

}  // namespace hermes
