// The session store from C: open, list, search, load, delete; results as JSON.
#include "c_internal.hpp"
#include "hermes/home.hpp"

using hermes::capi::report;

namespace {

hermes::Json session_json(const hermes::SessionInfo& s) {
  return {{"id", s.id},
          {"source", s.source},
          {"model", s.model},
          {"title", s.title},
          {"parent_session_id", s.parent_session_id},
          {"started_at", s.started_at},
          {"ended_at", s.ended_at},
          {"end_reason", s.end_reason},
          {"message_count", s.message_count},
          {"tool_call_count", s.tool_call_count},
          {"api_call_count", s.api_call_count}};
}

hermes::Json hit_json(const hermes::SearchHit& h) {
  return {{"session_id", h.session_id}, {"message_id", h.message_id}, {"role", h.role},
          {"snippet", h.snippet},       {"timestamp", h.timestamp},   {"source", h.source},
          {"model", h.model},           {"tool_name", h.tool_name}};
}

}  // namespace

extern "C" {

hermes_status_t hermes_store_open(const char* path, hermes_store_t** out_store,
                                  hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_store == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_store: NULL", out_error);
    *out_store = nullptr;
    const std::string file = path != nullptr && *path != '\0'
                                 ? std::string(path)
                                 : hermes::default_state_db_path(hermes::default_home());
    auto store = hermes::open_sqlite_store(file);
    if (!store.ok()) return report(store.status(), out_error);
    *out_store = new hermes_store_t{std::move(*store)};
    return HERMES_OK;
  });
}

void hermes_store_free(hermes_store_t* store) {
  delete store;
}

void hermes_store_freep(hermes_store_t** store) {
  if (store == nullptr) return;
  delete *store;
  *store = nullptr;
}

hermes_status_t hermes_store_list(hermes_store_t* store, int32_t limit, char** out_sessions_json,
                                  hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_sessions_json != nullptr) *out_sessions_json = nullptr;
    if (store == nullptr || out_sessions_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "store or out_sessions_json: NULL", out_error);
    }
    hermes::ListOptions options;
    if (limit > 0) options.limit = limit;
    auto sessions = store->store->list_sessions(options);
    if (!sessions.ok()) return report(sessions.status(), out_error);
    hermes::Json out = hermes::Json::array();
    for (const auto& s : *sessions) out.push_back(session_json(s));
    return hermes::capi::return_string(hermes::capi::to_json_text(out), out_sessions_json,
                                       out_error);
  });
}

hermes_status_t hermes_store_search(hermes_store_t* store, const char* query, int32_t limit,
                                    char** out_hits_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_hits_json != nullptr) *out_hits_json = nullptr;
    if (store == nullptr || query == nullptr || out_hits_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "store, query or out_hits_json: NULL", out_error);
    }
    hermes::SearchOptions options;
    if (limit > 0) options.limit = limit;
    hermes::SessionSearch* search = store->store->search_capability();
    if (search == nullptr) {
      return report(hermes::Status::unimplemented("this session store cannot search"), out_error);
    }
    auto hits = search->search(query, options);
    if (!hits.ok()) return report(hits.status(), out_error);
    hermes::Json out = hermes::Json::array();
    for (const auto& h : *hits) out.push_back(hit_json(h));
    return hermes::capi::return_string(hermes::capi::to_json_text(out), out_hits_json, out_error);
  });
}

hermes_status_t hermes_store_load(hermes_store_t* store, const char* session_id,
                                  char** out_messages_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_messages_json != nullptr) *out_messages_json = nullptr;
    if (store == nullptr || session_id == nullptr || out_messages_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "store, session_id or out_messages_json: NULL",
                    out_error);
    }
    // An unknown id is NotFound, not an empty list.
    if (auto info = store->store->get_session(session_id); !info.ok())
      return report(info.status(), out_error);
    auto messages = store->store->load_messages(session_id, hermes::LoadOptions{});
    if (!messages.ok()) return report(messages.status(), out_error);
    const std::string text = hermes::capi::to_json_text(hermes::messages_to_json(*messages));
    return hermes::capi::return_string(text, out_messages_json, out_error);
  });
}

hermes_status_t hermes_store_delete(hermes_store_t* store, const char* session_id,
                                    hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (store == nullptr || session_id == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "store or session_id: NULL", out_error);
    }
    return report(store->store->delete_session(session_id), out_error);  // NotFound included.
  });
}

}  // extern "C"
