// A session as JSON Lines, through the public store API only, so every backend exports the
// same way.
#include "common/json_text.hpp"
#include "hermes/session_store.hpp"

namespace hermes {
namespace {

Json session_line(const SessionInfo& s) {
  Json line = {{"type", "session"},
               {"id", s.id},
               {"source", s.source},
               {"model", s.model},
               {"title", s.title},
               {"parent_session_id", s.parent_session_id},
               {"user_id", s.user_id},
               {"session_key", s.session_key},
               {"model_config", s.model_config},
               {"system_prompt", s.system_prompt},
               {"started_at", s.started_at},
               {"ended_at", s.ended_at == 0 ? Json() : Json(s.ended_at)},
               {"end_reason", s.end_reason},
               {"message_count", s.message_count},
               {"tool_call_count", s.tool_call_count},
               {"api_call_count", s.api_call_count},
               {"usage", usage_to_json(s.usage)},
               {"estimated_cost_usd", s.estimated_cost_usd}};
  return line;
}

Json message_line(const std::string& session_id, const StoredMessage& m) {
  Json line = {{"type", "message"},
               {"session_id", session_id},
               {"id", m.id},
               {"message", message_to_json(m.message)}};
  if (m.archived) line["archived"] = true;
  return line;
}

// The sessions to export: the compression ancestors (when asked) and the session. A store
// without the compaction capability has no ancestors: the session alone.
Result<std::vector<SessionInfo>> export_chain(SessionStore& store, const std::string& session_id,
                                              bool include_ancestors) {
  SessionCompaction* compaction = store.compaction_capability();
  if (compaction == nullptr) {
    auto info = store.get_session(session_id);
    if (!info.ok()) return info.status();
    return std::vector<SessionInfo>{std::move(*info)};
  }
  auto chain = compaction->lineage(session_id);
  if (!chain.ok()) return chain.status();
  if (!include_ancestors) return std::vector<SessionInfo>{chain->back()};
  // Only the compression continuations belong to this conversation.
  std::size_t first = chain->size() - 1;
  while (first > 0 && (*chain)[first - 1].end_reason == "compression" &&
         (*chain)[first].parent_session_id == (*chain)[first - 1].id) {
    --first;
  }
  return std::vector<SessionInfo>(chain->begin() + static_cast<std::ptrdiff_t>(first),
                                  chain->end());
}

}  // namespace

Result<std::string> export_session_jsonl(SessionStore& store, const std::string& session_id,
                                         bool include_ancestors, std::size_t max_messages) {
  SessionSearch* rows_source = store.search_capability();
  if (rows_source == nullptr) {
    return Status::unimplemented(
        "export: this session store cannot read stored rows (it has no search capability)");
  }
  auto chain = export_chain(store, session_id, include_ancestors);
  if (!chain.ok()) return chain.status();
  std::string out;
  std::size_t exported = 0;
  for (const SessionInfo& session : *chain) {
    out += internal::dump_json(session_line(session));
    out += '\n';
    ReadOptions options;
    if (max_messages > 0) options.limit = max_messages - exported + 1;
    auto rows = rows_source->read_messages(session.id, options);
    if (!rows.ok()) return rows.status();
    exported += rows->size();
    if (max_messages > 0 && exported > max_messages) {
      return Status::resource_exhausted("session '" + session_id + "' has more than " +
                                        std::to_string(max_messages) +
                                        " messages to export; raise the limit (0 disables it)");
    }
    for (const StoredMessage& m : *rows) {
      out += internal::dump_json(message_line(session.id, m));
      out += '\n';
    }
  }
  return out;
}

}  // namespace hermes
