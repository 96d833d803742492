// The model-facing description of the session_search tool.
#include "tools/session_search.hpp"

namespace hermes::tools {

Json session_search_parameters() {
  static const Json kSchema = Json::parse(R"json({
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "Words or phrases to find in past sessions (discovery). Terms are AND-ed; use OR for alternatives, quotes for an exact phrase, NOT to exclude, a trailing * for a prefix. Leave out to browse recent sessions."},
    "limit": {"type": "integer", "default": 3, "description": "Discovery: how many sessions to return (1-10)."},
    "sort": {"type": "string", "enum": ["newest", "oldest"], "description": "Discovery: favour recent ('newest') or early ('oldest') matches over pure relevance."},
    "detail": {"type": "string", "enum": ["adaptive", "full"], "default": "adaptive", "description": "Discovery: 'adaptive' gives the best result a window of context and the others only the matching message; 'full' gives every result its window."},
    "session_id": {"type": "string", "description": "Scroll or read inside this session (from a discovery result)."},
    "around_message_id": {"type": "integer", "description": "Scroll: the message id to centre the window on (match_message_id, or the first/last id of a previous window to move backward/forward)."},
    "window": {"type": "integer", "default": 5, "description": "Scroll: messages on each side of the anchor (1-20)."},
    "role_filter": {"type": "string", "description": "Discovery: comma-separated roles to search; default 'user,assistant'. Add 'tool' to search tool output."}
  },
  "required": []
})json");
  return kSchema;
}

std::string session_search_description() {
  return "Recall earlier conversations from the session history, without any model call.\n\n"
         "- Discovery: pass `query`. Returns up to `limit` past sessions (one per "
         "conversation) with the matching message. The best result also carries the "
         "messages around the match and the first and last turns of that conversation.\n"
         "- Scroll: pass `session_id` and `around_message_id` to read more around a match.\n"
         "- Read: pass `session_id` alone to read a session (its start and end when long).\n"
         "- Browse: pass nothing to list recent sessions.\n\n"
         "Use it when the user refers to earlier work or when earlier context probably "
         "exists, before asking them to repeat themselves. It only knows what was said in "
         "past sessions: check a live source first when the user names one.";
}

}  // namespace hermes::tools
