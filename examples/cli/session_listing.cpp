#include "session_listing.hpp"

#include <cstdio>
#include <ctime>

namespace hermes_cli {
namespace {

std::string local_time(double unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
  return buf;
}

}  // namespace

hermes::Status print_sessions(Terminal& out, hermes::SessionStore& store,
                              const std::string& current, int limit) {
  hermes::ListOptions opts;
  opts.limit = limit;
  auto sessions = store.list_sessions(opts);
  if (!sessions.ok()) return sessions.status();
  for (const auto& s : *sessions) {
    char line[512];
    std::snprintf(line, sizeof line, "%s %s  %s  %-8s %4lld msgs  %s", s.id == current ? "*" : " ",
                  s.id.c_str(), local_time(s.started_at).c_str(), s.source.c_str(),
                  static_cast<long long>(s.message_count), s.title.c_str());
    out.print(line);
  }
  if (sessions->empty()) out.print("(no sessions)");
  return hermes::Status();
}

hermes::Status print_search(Terminal& out, hermes::SessionStore& store, const std::string& query,
                            int limit) {
  hermes::SearchOptions opts;
  opts.limit = limit;
  hermes::SessionSearch* search = store.search_capability();
  if (search == nullptr) return hermes::Status::unimplemented("this session store cannot search");
  auto hits = search->search(query, opts);
  if (!hits.ok()) return hits.status();
  for (const auto& h : *hits) {
    char line[160];
    std::snprintf(line, sizeof line, "%s  #%lld %-9s ", h.session_id.c_str(),
                  static_cast<long long>(h.message_id), h.role.c_str());
    out.print(line + h.snippet);
  }
  if (hits->empty()) out.print("(no matches for \"" + query + "\")");
  return hermes::Status();
}

}  // namespace hermes_cli
