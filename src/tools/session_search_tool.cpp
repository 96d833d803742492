// session_search: discovery, scroll, read and browse over the session store. No model is
// called; every mode returns stored messages.
#include "hermes/session_search_tool.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <map>
#include <set>
#include <string_view>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "tools/session_search.hpp"

namespace hermes::tools {
namespace {

// Sessions that are not the user's conversations: third-party tools, sub-agents, kanban.
const std::vector<std::string> kHiddenSources = {"kanban", "subagent", "tool"};
// Scheduled runs repeat the same words endlessly; they rank after interactive sessions.
constexpr std::string_view kDemotedSource = "cron";
// FTS rows discovery looks at before grouping them by conversation.
constexpr int kDiscoverScanRows = 300;
// Ends after which a session's transcript is in nobody's live context: compression (it was
// summarised into the child) and resets (the child starts empty).
constexpr std::array<std::string_view, 8> kLeftContextReasons = {
    "session_reset", "session_switch",         "idle",        "daily",
    "suspended",     "resume_pending_expired", "new_session", "compression"};
constexpr std::array<std::string_view, 2> kCompactionPrefixes = {"[CONTEXT COMPACTION",
                                                                 "[CONTEXT SUMMARY]:"};
constexpr int kDiscoverWindow = 5;
constexpr std::size_t kBookendCount = 3;
constexpr std::size_t kWindowContentChars = 4000;
constexpr std::size_t kBookendContentChars = 1200;
constexpr std::size_t kReadHead = 20;
constexpr std::size_t kReadTail = 10;
constexpr std::size_t kPreviewChars = 60;

std::string failure(const std::string& message) {
  return internal::dump_json(Json{{"success", false}, {"error", message}});
}

// "March 05, 2026 at 02:15 PM" in local time, with English names whatever the locale.
std::string format_when(double unix_seconds) {
  if (unix_seconds <= 0) return "unknown";
  static constexpr std::array<const char*, 12> kMonths = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  const auto whole = static_cast<std::time_t>(unix_seconds);
  std::tm t{};
  localtime_r(&whole, &t);
  const int hour12 = t.tm_hour % 12 == 0 ? 12 : t.tm_hour % 12;
  char text[64];
  std::snprintf(text, sizeof text, "%s %02d, %d at %02d:%02d %s", kMonths[t.tm_mon % 12], t.tm_mday,
                t.tm_year + 1900, hour12, t.tm_min, t.tm_hour < 12 ? "AM" : "PM");
  return text;
}

// Terminal colour codes in recalled tool output mean nothing to a model.
std::string strip_ansi(const std::string& text) {
  if (text.find('\x1b') == std::string::npos) return text;
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      out += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= '@' && text[i] <= '~')) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

Json shape_message(const StoredMessage& stored, int64_t anchor_id = 0, std::size_t max_chars = 0) {
  const Message& m = stored.message;
  std::string content = strip_ansi(m.content);
  Json entry = {{"id", stored.id}, {"role", std::string(role_name(m.role))}};
  const std::size_t cut =
      max_chars > 0 ? internal::utf8_head(content, max_chars).size() : content.size();
  if (cut < content.size()) {
    entry["content"] = content.substr(0, cut) + "\u2026";
    entry["content_truncated"] = true;
    entry["original_content_chars"] = internal::utf8_length(content);
  } else {
    entry["content"] = content;
  }
  if (m.timestamp > 0) entry["timestamp"] = m.timestamp;
  if (m.role == Role::kTool && !m.name.empty()) entry["tool_name"] = m.name;
  if (!m.tool_calls.empty()) entry["tool_calls"] = message_to_json(m)["tool_calls"];
  if (!m.tool_call_id.empty()) entry["tool_call_id"] = m.tool_call_id;
  if (anchor_id != 0 && stored.id == anchor_id) entry["anchor"] = true;
  if (stored.archived) entry["archived"] = true;
  return entry;
}

bool is_compaction_summary(const Message& m) {
  std::string_view text = m.content;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  return std::any_of(kCompactionPrefixes.begin(), kCompactionPrefixes.end(),
                     [&](std::string_view p) { return text.substr(0, p.size()) == p; });
}

std::string link_to(const std::string& session_id) {
  return "@session:" + session_id;
}

Json session_meta(const SessionInfo& s) {
  return {{"when", format_when(s.started_at)},
          {"source", s.source},
          {"model", s.model},
          {"title", s.title.empty() ? Json() : Json(s.title)}};
}

// Session rows and lineage roots, looked up once per call.
class Lineages {
 public:
  explicit Lineages(SessionStore& store) : store_(store) {}

  const SessionInfo* session(const std::string& id) {
    auto it = sessions_.find(id);
    if (it == sessions_.end()) {
      auto row = store_.get_session(id);
      it = sessions_.emplace(id, row.ok() ? std::optional<SessionInfo>(*row) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  std::string root(const std::string& id) {
    std::string current = id;
    std::set<std::string> seen = {id};
    while (const SessionInfo* s = session(current)) {
      if (s->parent_session_id.empty() || !seen.insert(s->parent_session_id).second) break;
      if (session(s->parent_session_id) == nullptr) break;
      current = s->parent_session_id;
    }
    return current;
  }

  // Ended by compression or a reset: its transcript is in nobody's live context.
  bool left_live_context(const std::string& id) {
    const SessionInfo* s = session(id);
    if (s == nullptr || s->ended_at == 0) return false;
    return std::find(kLeftContextReasons.begin(), kLeftContextReasons.end(), s->end_reason) !=
           kLeftContextReasons.end();
  }

  bool compression_in_chain(const std::string& id) {
    std::string current = id;
    std::set<std::string> seen;
    while (const SessionInfo* s = session(current)) {
      if (!seen.insert(current).second) break;
      if (s->end_reason == "compression") return true;
      if (s->parent_session_id.empty()) break;
      current = s->parent_session_id;
    }
    return false;
  }

 private:
  SessionStore& store_;
  std::map<std::string, std::optional<SessionInfo>> sessions_;
};

int clamp_int(const Json& args, const char* key, int fallback, int low, int high) {
  auto it = args.find(key);
  int value = fallback;
  if (it != args.end() && it->is_number()) {
    value = static_cast<int>(std::clamp<int64_t>(*internal::json_integer(*it), low, high));
  }
  if (it != args.end() && it->is_string()) {
    try {
      value = std::stoi(it->get<std::string>());
    } catch (...) {
    }
  }
  return std::clamp(value, low, high);
}

std::string string_arg(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return {};
  std::string value = it->get<std::string>();
  const auto first = value.find_first_not_of(" \t\n");
  if (first == std::string::npos) return {};
  return value.substr(first, value.find_last_not_of(" \t\n") - first + 1);
}

// ---- Windows over a session's rows ----

struct Window {
  std::vector<const StoredMessage*> messages;
  std::size_t before = 0;  // Rows before the first shown.
  std::size_t after = 0;   // Rows after the last shown.
};

Window window_around(const std::vector<StoredMessage>& rows, int64_t anchor, int radius) {
  Window w;
  auto it = std::find_if(rows.begin(), rows.end(),
                         [&](const StoredMessage& m) { return m.id == anchor; });
  if (it == rows.end()) return w;
  const auto at = static_cast<std::size_t>(it - rows.begin());
  const std::size_t r = static_cast<std::size_t>(radius);
  const std::size_t first = at > r ? at - r : 0;
  const std::size_t last = std::min(rows.size(), at + r + 1);
  for (std::size_t i = first; i < last; ++i) w.messages.push_back(&rows[i]);
  w.before = first;
  w.after = rows.size() - last;
  return w;
}

// The first and last few user/assistant turns, summaries of compactions left out.
Json bookend(const std::vector<StoredMessage>& rows, bool from_start) {
  std::vector<const StoredMessage*> picked;
  auto take = [&](const StoredMessage& m) {
    const bool turn = m.message.role == Role::kUser || m.message.role == Role::kAssistant;
    if (turn && !m.message.content.empty() && !is_compaction_summary(m.message))
      picked.push_back(&m);
    return picked.size() >= kBookendCount;
  };
  if (from_start) {
    for (const auto& m : rows) {
      if (take(m)) break;
    }
  } else {
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
      if (take(*it)) break;
    }
    std::reverse(picked.begin(), picked.end());
  }
  Json out = Json::array();
  for (const auto* m : picked) out.push_back(shape_message(*m, 0, kBookendContentChars));
  return out;
}

// ---- Modes ----

std::string scroll(SessionSearch& searcher, Lineages& lineages, const std::string& current,
                   const std::string& session_id, int64_t anchor, int radius) {
  const SessionInfo* meta = lineages.session(session_id);
  if (meta == nullptr) return failure("session_id not found: " + session_id);
  auto rows = searcher.read_messages(session_id);
  if (!rows.ok()) return failure("failed to load messages: " + rows.status().message());
  const Window w = window_around(*rows, anchor, radius);
  if (w.messages.empty()) {
    return failure("around_message_id " + std::to_string(anchor) + " not in session_id " +
                   session_id);
  }
  const StoredMessage* anchor_row = nullptr;
  for (const auto* m : w.messages) {
    if (m->id == anchor) anchor_row = m;
  }
  if (!current.empty() && lineages.root(session_id) == lineages.root(current) &&
      !(anchor_row->archived || lineages.left_live_context(session_id))) {
    return failure(
        "scroll rejected: the anchor is part of the current conversation (already in your "
        "context)");
  }
  Json messages = Json::array();
  for (const auto* m : w.messages) messages.push_back(shape_message(*m, anchor));
  return internal::dump_json(Json{{"success", true},
                                  {"mode", "scroll"},
                                  {"session_id", session_id},
                                  {"around_message_id", anchor},
                                  {"session_meta", session_meta(*meta)},
                                  {"window", radius},
                                  {"messages", messages},
                                  {"messages_before", w.before},
                                  {"messages_after", w.after}});
}

std::string read_session(SessionSearch& searcher, Lineages& lineages,
                         const std::string& session_id) {
  const SessionInfo* meta = lineages.session(session_id);
  if (meta == nullptr) return failure("session_id not found: " + session_id);
  auto rows = searcher.read_messages(session_id);
  if (!rows.ok()) return failure("failed to load session: " + rows.status().message());
  const std::size_t total = rows->size();
  const bool truncated = total > kReadHead + kReadTail;
  Json messages = Json::array();
  for (std::size_t i = 0; i < total; ++i) {
    if (truncated && i >= kReadHead && i < total - kReadTail) continue;
    messages.push_back(shape_message((*rows)[i]));
  }
  Json response = {{"success", true},
                   {"mode", "read"},
                   {"session_id", session_id},
                   {"link", link_to(session_id)},
                   {"session_meta", session_meta(*meta)},
                   {"message_count", total},
                   {"truncated", truncated},
                   {"messages", messages}};
  if (truncated) {
    response["message"] = "Session has " + std::to_string(total) + " messages; showing the first " +
                          std::to_string(kReadHead) + " and the last " + std::to_string(kReadTail) +
                          ". Pass around_message_id (any id above) to scroll the middle.";
  }
  return internal::dump_json(response);
}

std::string preview_of(SessionSearch& searcher, const std::string& session_id) {
  auto rows = searcher.read_messages(session_id);
  if (!rows.ok()) return {};
  for (auto it = rows->rbegin(); it != rows->rend(); ++it) {
    const Message& m = it->message;
    if ((m.role != Role::kUser && m.role != Role::kAssistant) || m.content.empty()) continue;
    const std::size_t cut = internal::utf8_head(m.content, kPreviewChars).size();
    return cut < m.content.size() ? m.content.substr(0, cut) + "..." : m.content;
  }
  return {};
}

std::string browse(SessionStore& store, SessionSearch& searcher, Lineages& lineages,
                   const std::string& current, int limit) {
  ListOptions options;
  options.roots_only = true;
  options.limit = 200;
  auto sessions = store.list_sessions(options);
  if (!sessions.ok()) return failure("failed to list sessions: " + sessions.status().message());
  const std::string current_root = current.empty() ? "" : lineages.root(current);
  const bool hide_root = !current.empty() && lineages.compression_in_chain(current);
  Json results = Json::array();
  for (const SessionInfo& s : *sessions) {
    if (static_cast<int>(results.size()) >= limit) break;
    if (std::find(kHiddenSources.begin(), kHiddenSources.end(), s.source) != kHiddenSources.end()) {
      continue;
    }
    // The root of a compressed current conversation is already summarised in context.
    if (s.id == current || (hide_root && s.id == current_root)) continue;
    results.push_back({{"session_id", s.id},
                       {"link", link_to(s.id)},
                       {"title", s.title.empty() ? Json() : Json(s.title)},
                       {"source", s.source},
                       {"started_at", s.started_at},
                       {"when", format_when(s.started_at)},
                       {"message_count", s.message_count},
                       {"preview", preview_of(searcher, s.id)}});
  }
  const std::size_t count = results.size();
  return internal::dump_json(
      Json{{"success", true},
           {"mode", "browse"},
           {"results", results},
           {"count", count},
           {"message", "Showing " + std::to_string(count) +
                           " most recent sessions. Pass query= to search, or "
                           "session_id+around_message_id to scroll."}});
}

struct DiscoverRequest {
  std::string query;
  std::vector<std::string> roles;
  int limit = 3;
  SearchOrder order = SearchOrder::kRelevance;
  bool full = false;
};

// The hits worth showing, one per conversation, best first.
std::vector<SearchHit> pick_hits(std::vector<SearchHit> hits, Lineages& lineages,
                                 const std::string& current, int limit) {
  std::stable_sort(hits.begin(), hits.end(), [](const SearchHit& a, const SearchHit& b) {
    return (a.source == kDemotedSource) < (b.source == kDemotedSource);
  });
  const std::string current_root = current.empty() ? "" : lineages.root(current);
  std::vector<SearchHit> picked;
  std::set<std::string> roots;
  for (auto& hit : hits) {
    if (static_cast<int>(picked.size()) >= limit) break;
    const std::string root = lineages.root(hit.session_id);
    const bool out_of_context = hit.archived || lineages.left_live_context(hit.session_id);
    if (!current.empty() && root == current_root && !out_of_context) continue;
    if (hit.session_id == current && !hit.archived) continue;
    if (!roots.insert(root).second) continue;
    hit.root_session_id = root;
    picked.push_back(std::move(hit));
  }
  return picked;
}

Json discovery_result(SessionSearch& searcher, Lineages& lineages, const SearchHit& hit,
                      bool full) {
  auto rows = searcher.read_messages(hit.session_id);
  std::vector<StoredMessage> stored = rows.ok() ? std::move(*rows) : std::vector<StoredMessage>();
  const Window w = window_around(stored, hit.message_id, kDiscoverWindow);
  Json messages = Json::array();
  for (const auto* m : w.messages) {
    if (full || m->id == hit.message_id) {
      messages.push_back(shape_message(*m, hit.message_id, kWindowContentChars));
    }
  }
  const SessionInfo* root = lineages.session(hit.root_session_id);
  Json entry = {{"session_id", hit.session_id},
                {"link", link_to(hit.session_id)},
                {"when", format_when(root != nullptr ? root->started_at : hit.session_started)},
                {"source", root != nullptr ? root->source : hit.source},
                {"model", root != nullptr && !root->model.empty() ? root->model : hit.model},
                {"title", root != nullptr && !root->title.empty() ? Json(root->title) : Json()},
                {"matched_role", hit.role},
                {"match_message_id", hit.message_id},
                {"snippet", hit.snippet},
                {"bookend_start", full ? bookend(stored, true) : Json::array()},
                {"messages", messages},
                {"bookend_end", full ? bookend(stored, false) : Json::array()},
                {"messages_before", w.before},
                {"messages_after", w.after},
                {"detail", full ? "full" : "compact"}};
  if (hit.root_session_id != hit.session_id) entry["parent_session_id"] = hit.root_session_id;
  return entry;
}

std::string discover(SessionSearch& searcher, Lineages& lineages, const std::string& current,
                     const DiscoverRequest& request) {
  SearchOptions options;
  options.limit = kDiscoverScanRows;
  options.roles =
      request.roles.empty() ? std::vector<std::string>{"user", "assistant"} : request.roles;
  options.exclude_sources = kHiddenSources;
  options.order = request.order;
  auto hits = searcher.search(request.query, options);
  if (!hits.ok()) return failure("search failed: " + hits.status().message());
  const std::vector<SearchHit> picked =
      pick_hits(std::move(*hits), lineages, current, request.limit);
  Json results = Json::array();
  for (const SearchHit& hit : picked) {
    results.push_back(discovery_result(searcher, lineages, hit, request.full || results.empty()));
  }
  Json response = {{"success", true},
                   {"mode", "discover"},
                   {"query", request.query},
                   {"detail", request.full ? "full" : "adaptive"},
                   {"results", results},
                   {"count", results.size()},
                   {"sessions_searched", picked.size()}};
  if (results.empty()) response["message"] = "No matching sessions found.";
  return internal::dump_json(response);
}

std::vector<std::string> split_roles(const std::string& text) {
  std::vector<std::string> roles;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string role = text.substr(start, end - start);
    role.erase(0, role.find_first_not_of(' '));
    role.erase(role.find_last_not_of(' ') + 1);
    if (!role.empty()) roles.push_back(role);
    start = end + 1;
  }
  return roles;
}

}  // namespace

std::string run_session_search(SessionStore& store, const std::string& current,
                               const Json& args_in) {
  SessionSearch* search = store.search_capability();
  if (search == nullptr) {
    return failure(
        "session_search is unavailable: this agent's session store cannot search or read "
        "stored conversations");
  }
  SessionSearch& searcher = *search;
  const Json args = args_in.is_object() ? args_in : Json::object();
  Lineages lineages(store);
  std::string session_id = string_arg(args, "session_id");
  // A pasted "@session:<profile>/<id>" link names the id after the slash.
  if (session_id.rfind("@session:", 0) == 0) session_id.erase(0, 9);
  if (auto slash = session_id.rfind('/'); slash != std::string::npos)
    session_id.erase(0, slash + 1);
  auto anchor = args.find("around_message_id");
  if (!session_id.empty() && anchor != args.end() && !anchor->is_null()) {
    if (!anchor->is_number_integer())
      return failure("scroll requires an integer around_message_id");
    return scroll(searcher, lineages, current, session_id, anchor->get<int64_t>(),
                  clamp_int(args, "window", 5, 1, 20));
  }
  if (!session_id.empty()) return read_session(searcher, lineages, session_id);
  const int limit = clamp_int(args, "limit", 3, 1, 10);
  DiscoverRequest request;
  request.query = string_arg(args, "query");
  if (request.query.empty()) return browse(store, searcher, lineages, current, limit);
  request.limit = limit;
  request.roles = split_roles(string_arg(args, "role_filter"));
  const std::string sort = string_arg(args, "sort");
  if (sort == "newest") request.order = SearchOrder::kNewest;
  if (sort == "oldest") request.order = SearchOrder::kOldest;
  request.full = string_arg(args, "detail") == "full";
  return discover(searcher, lineages, current, request);
}

}  // namespace hermes::tools

namespace hermes {

Status register_session_search_tool(ToolRegistry& registry) {
  ToolSpec spec;
  spec.name = "session_search";
  spec.toolset = "session_search";
  spec.description = tools::session_search_description();
  spec.parameters = tools::session_search_parameters();
  spec.parallel_safe = true;
  spec.handler = [](const Json& arguments, ToolContext& context) -> Result<std::string> {
    if (context.store == nullptr) {
      return Status::failed_precondition(
          "session_search needs a session store; this agent has none");
    }
    return tools::run_session_search(*context.store, context.session_id, arguments);
  };
  return registry.register_tool(std::move(spec));
}

}  // namespace hermes
