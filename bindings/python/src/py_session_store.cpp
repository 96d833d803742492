// hermes.SessionStore: the SQLite session store (or an in-memory one), shareable between
// agents, with rows handed to Python as dicts. Every call releases the GIL.
#include <pybind11/stl.h>

#include <utility>

#include "hermes/home.hpp"
#include "hermes/session_store.hpp"
#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// Runs `f` with the GIL released: the store may wait for the disk or another writer.
template <typename F>
auto released(F&& f) {
  py::gil_scoped_release release;
  return f();
}

class PySessionStore {
 public:
  explicit PySessionStore(const py::object& path) {
    path_ = path.is_none() ? default_state_db_path(default_home()) : std::string(py::str(path));
    if (path_ == ":memory:") {
      store_ = make_memory_store();
      return;
    }
    auto opened = released([&] { return open_sqlite_store(path_); });
    if (!opened.ok()) raise_status(opened.status());
    store_ = std::move(*opened);
  }

  py::list search(const std::string& query, int limit) {
    SearchOptions options;
    options.limit = limit;
    SessionSearch* searcher = store_->search_capability();
    if (searcher == nullptr)
      raise_status(Status::unimplemented("this session store cannot search"));
    auto hits = released([&] { return searcher->search(query, options); });
    if (!hits.ok()) raise_status(hits.status());
    py::list out;
    for (const SearchHit& hit : *hits) out.append(hit_to_python(hit));
    return out;
  }

  py::list list(int limit) {
    ListOptions options;
    options.limit = limit;
    auto sessions = released([&] { return store_->list_sessions(options); });
    if (!sessions.ok()) raise_status(sessions.status());
    py::list out;
    for (const SessionInfo& info : *sessions) out.append(session_to_python(info));
    return out;
  }

  py::dict get(const std::string& session_id) {
    auto info = released([&] { return store_->get_session(session_id); });
    if (!info.ok()) raise_status(info.status());
    return session_to_python(*info);
  }

  py::list load(const std::string& session_id) {
    auto messages = released([&] { return store_->load_messages(session_id); });
    if (!messages.ok()) raise_status(messages.status());
    return to_python(messages_to_json(*messages)).cast<py::list>();
  }

  void remove(const std::string& session_id) {
    Status s = released([&] { return store_->delete_session(session_id); });
    if (!s.ok()) raise_status(s);
  }

  const std::string& path() const { return path_; }
  const std::shared_ptr<SessionStore>& store() const { return store_; }

 private:
  static py::object text_or_none(const std::string& s) {
    return s.empty() ? py::object(py::none()) : py::str(s);
  }

  static py::dict session_to_python(const SessionInfo& s) {
    py::dict d;
    d["id"] = s.id;
    d["source"] = s.source;
    d["model"] = s.model;
    d["title"] = text_or_none(s.title);
    d["parent_session_id"] = text_or_none(s.parent_session_id);
    d["started_at"] = s.started_at;
    d["ended_at"] = s.ended_at > 0 ? py::object(py::float_(s.ended_at)) : py::object(py::none());
    d["end_reason"] = text_or_none(s.end_reason);
    d["message_count"] = s.message_count;
    d["tool_call_count"] = s.tool_call_count;
    d["api_call_count"] = s.api_call_count;
    d["input_tokens"] = s.usage.input_tokens;
    d["output_tokens"] = s.usage.output_tokens;
    d["estimated_cost_usd"] = s.estimated_cost_usd;
    return d;
  }

  static py::dict hit_to_python(const SearchHit& h) {
    py::dict d;
    d["session_id"] = h.session_id;
    d["message_id"] = h.message_id;
    d["role"] = h.role;
    d["snippet"] = to_python(Json(h.snippet));  // Snippets may cut a character in two.
    d["timestamp"] = h.timestamp;
    d["rank"] = h.rank;
    d["tool_name"] = text_or_none(h.tool_name);
    d["source"] = h.source;
    d["model"] = h.model;
    d["session_started"] = h.session_started;
    d["archived"] = h.archived;
    return d;
  }

  std::string path_;
  std::shared_ptr<SessionStore> store_;
};

}  // namespace

std::shared_ptr<SessionStore> session_store_from_python(const py::handle& store) {
  if (!py::isinstance<PySessionStore>(store)) {
    throw py::type_error("session_store: expected hermes.SessionStore, got " +
                         std::string(py::str(py::type::handle_of(store).attr("__name__"))));
  }
  return store.cast<const PySessionStore&>().store();
}

void register_session_store(py::module_& m) {
  py::class_<PySessionStore>(m, "SessionStore", R"doc(
Where conversations are kept: the SQLite database agents persist to.

    store = hermes.SessionStore("/srv/agent/state.db")
    for hit in store.search("deployment checklist"):
        print(hit["session_id"], hit["snippet"])

path=None opens the default database (<default home>/state.db); ":memory:" makes a
store that lives in this process only. Pass the store to several agents with
hermes.Agent(..., session_store=store) to share it. Safe to use from many threads.)doc")
      .def(py::init<const py::object&>(), py::arg("path") = py::none())
      .def("search", &PySessionStore::search, py::arg("query"), py::arg("limit") = 20,
           "Full-text search over stored messages, best match first. Any text is a valid "
           "query. Each hit is a dict: session_id, message_id, role, snippet (the match "
           "marked by >>> and <<<), timestamp, rank, tool_name, source, model, "
           "session_started, archived.")
      .def("list", &PySessionStore::list, py::arg("limit") = 50,
           "Sessions, most recently started first, as dicts: id, source, model, title, "
           "parent_session_id, started_at, ended_at, end_reason, message_count, "
           "tool_call_count, api_call_count, input_tokens, output_tokens, estimated_cost_usd.")
      .def("get", &PySessionStore::get, py::arg("session_id"),
           "One session as list() describes it. Raises hermes.NotFoundError.")
      .def("load", &PySessionStore::load, py::arg("session_id"),
           "The session's messages as chat message dicts, ready for "
           "run_conversation(conversation_history=...). Raises hermes.NotFoundError.")
      .def("delete", &PySessionStore::remove, py::arg("session_id"),
           "Deletes the session and its messages. Raises hermes.NotFoundError.")
      .def_property_readonly("path", &PySessionStore::path, "The database file, or ':memory:'.")
      .def("__repr__",
           [](const PySessionStore& s) { return "hermes.SessionStore('" + s.path() + "')"; });
}

}  // namespace hermes::python
