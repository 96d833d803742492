// The in-memory store: session rows, appends, loading and search. Lineage, compaction,
// leases and routing live in memory_lineage.cpp.
#include "store/memory_store.hpp"

#include <algorithm>
#include <set>

#include "common/utf8.hpp"
#include "store/code_points.hpp"
#include "store/conversation_filters.hpp"
#include "store/fts_query.hpp"
#include "store/search_context.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/store_errors.hpp"
#include "store/usage_accounting.hpp"

namespace hermes::store {
namespace {

// Snippets of substring hits: this many characters before the match, this many in all.
constexpr std::size_t kSnippetLead = 40;
constexpr std::size_t kSnippetLength = 120;

bool contains_ci(std::string_view text, std::string_view term) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::search(text.begin(), text.end(), term.begin(), term.end(),
                     [&](char a, char b) { return lower(a) == lower(b); }) != text.end();
}

bool row_contains(const MessageRow& row, std::string_view term) {
  return contains_ci(row.content.value_or(""), term) ||
         contains_ci(row.tool_name.value_or(""), term) ||
         contains_ci(row.tool_calls.value_or(""), term);
}

bool row_matches(const MessageRow& row, const std::vector<LikeGroup>& groups) {
  return std::any_of(groups.begin(), groups.end(), [&](const LikeGroup& group) {
    return std::all_of(group.begin(), group.end(), [&](const LikeTerm& term) {
      return row_contains(row, term.text) != term.negated;
    });
  });
}

std::string snippet_around(const std::string& content, const std::string& term) {
  const std::u32string text = to_code_points(content);
  const std::u32string needle = to_code_points(term);
  auto lower = [](char32_t c) { return c >= U'A' && c <= U'Z' ? c + 32 : c; };
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                        [&](char32_t a, char32_t b) { return lower(a) == lower(b); });
  const auto at = it == text.end() ? 0 : static_cast<std::size_t>(it - text.begin());
  const std::size_t start = at > kSnippetLead ? at - kSnippetLead : 0;
  return mark_match(to_utf8(text.substr(start, kSnippetLength)), term);
}

bool passes_filters(const SessionInfo& session, const MessageRow& row, const SearchOptions& o) {
  auto listed = [](const std::vector<std::string>& list, const std::string& value) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  if (row.display_kind.value_or("") == "hidden") return false;
  if (!o.sources.empty() && !listed(o.sources, session.source)) return false;
  if (listed(o.exclude_sources, session.source)) return false;
  return o.roles.empty() || listed(o.roles, row.role);
}

}  // namespace

MemoryStore::Record* MemoryStore::find(const std::string& id) {
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : &it->second;
}

std::vector<const MemoryStore::Record*> MemoryStore::compression_ancestors(const Record& record) {
  std::vector<const Record*> chain;
  std::set<std::string> seen = {record.info.id};
  const Record* child = &record;
  while (chain.size() < kMaxLineageDepth && seen.insert(child->info.parent_session_id).second) {
    const Record* parent = find(child->info.parent_session_id);
    if (parent == nullptr || !is_compression_continuation(child->info, parent->info)) break;
    chain.push_back(parent);
    child = parent;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

std::string MemoryStore::lineage_root(const std::string& id) {
  std::string current = id;
  std::set<std::string> seen = {id};
  for (std::size_t depth = 0; depth < kMaxLineageDepth; ++depth) {
    const Record* record = find(current);
    if (record == nullptr) break;
    const std::string& parent = record->info.parent_session_id;
    if (parent.empty() || find(parent) == nullptr || !seen.insert(parent).second) break;
    current = parent;
  }
  return current;
}

const MemoryStore::Record* MemoryStore::title_holder(const std::string& title,
                                                     const std::string& except) {
  for (const auto& [id, record] : sessions_) {
    if (id != except && record.info.title == title) return &record;
  }
  return nullptr;
}

Status MemoryStore::create_session(const SessionInfo& info) {
  if (info.id.empty()) return Status::invalid_argument("session_id must not be empty");
  auto title = info.title.empty() ? Result<std::optional<std::string>>(std::optional<std::string>())
                                  : sanitize_title(info.title);
  if (!title.ok()) return title.status();
  std::lock_guard lock(mutex_);
  if (find(info.id) != nullptr) return {};
  if (!info.parent_session_id.empty() && find(info.parent_session_id) == nullptr) {
    return Status::not_found("parent session '" + info.parent_session_id + "' does not exist");
  }
  if (*title) {
    if (const Record* holder = title_holder(**title, info.id)) {
      return Status::already_exists("title '" + **title + "' is already used by session '" +
                                    holder->info.id + "'");
    }
  }
  SessionInfo stored;
  stored.id = info.id;
  stored.source = info.source;
  stored.model = info.model;
  stored.parent_session_id = info.parent_session_id;
  stored.title = title->value_or("");
  stored.system_prompt = internal::sanitize_utf8(info.system_prompt);
  stored.model_config = info.model_config;
  stored.user_id = info.user_id;
  stored.session_key = info.session_key;
  stored.started_at = info.started_at > 0 ? info.started_at : unix_now();
  stored.billing_provider = info.billing_provider;
  stored.billing_base_url = info.billing_base_url;
  sessions_[info.id].info = std::move(stored);
  return {};
}

Status MemoryStore::end_session(const std::string& session_id, const std::string& end_reason) {
  std::lock_guard lock(mutex_);
  Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  if (record->info.ended_at == 0) {
    record->info.ended_at = unix_now();
    record->info.end_reason = end_reason;
  }
  return {};
}

Result<SessionInfo> MemoryStore::get_session(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  return record->info;
}

Result<std::vector<SessionInfo>> MemoryStore::list_sessions(const ListOptions& options) {
  std::lock_guard lock(mutex_);
  std::vector<SessionInfo> listed;
  for (const auto& [id, record] : sessions_) {
    if (!options.source.empty() && record.info.source != options.source) continue;
    if (options.roots_only) {
      const Record* parent = find(record.info.parent_session_id);
      if (!is_listed_as_root(record.info, parent != nullptr ? &parent->info : nullptr)) continue;
    }
    listed.push_back(record.info);
  }
  std::sort(listed.begin(), listed.end(), [](const SessionInfo& a, const SessionInfo& b) {
    return a.started_at != b.started_at ? a.started_at > b.started_at : a.id > b.id;
  });
  const auto offset =
      std::min(listed.size(), static_cast<std::size_t>(std::max(options.offset, 0)));
  listed.erase(listed.begin(), listed.begin() + static_cast<std::ptrdiff_t>(offset));
  if (options.limit > 0 && listed.size() > static_cast<std::size_t>(options.limit)) {
    listed.resize(static_cast<std::size_t>(options.limit));
  }
  return listed;
}

Status MemoryStore::delete_session(const std::string& session_id) {
  std::lock_guard lock(mutex_);
  if (find(session_id) == nullptr) return session_not_found(session_id);
  for (auto& [id, record] : sessions_) {
    if (record.info.parent_session_id == session_id) record.info.parent_session_id.clear();
  }
  sessions_.erase(session_id);
  leases_.erase(session_id);
  return {};
}

Result<std::vector<int64_t>> MemoryStore::append_messages(const std::string& session_id,
                                                          const std::vector<Message>& messages) {
  return append_step(session_id, messages, {});
}

Result<std::vector<int64_t>> MemoryStore::append_step(const std::string& session_id,
                                                      const std::vector<Message>& messages,
                                                      const std::vector<UsageDelta>& usage) {
  auto rows = encode_batch(messages);
  if (!rows.ok()) return rows.status();
  if (rows->empty() && usage.empty()) return std::vector<int64_t>();
  assign_timestamps(*rows, unix_now());
  std::lock_guard lock(mutex_);
  // Every check before the first change: all of the step or none of it.
  if (rows->empty()) {
    if (find(session_id) == nullptr) return session_not_found(session_id);
  } else {
    HERMES_RETURN_IF_ERROR(check_appendable(session_id));
  }
  Record& record = *find(session_id);
  std::vector<int64_t> ids;
  for (auto& row : *rows) {
    ids.push_back(next_message_id_);
    append_row(record, std::move(row));
  }
  for (const UsageDelta& delta : usage) apply_usage_delta(record.info, delta);
  return ids;
}

Result<std::vector<Message>> MemoryStore::load_messages(const std::string& session_id,
                                                        const LoadOptions& options) {
  std::lock_guard lock(mutex_);
  const Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  std::vector<const Record*> chain;
  if (options.include_ancestors) chain = compression_ancestors(*record);
  chain.push_back(record);
  std::size_t total = 0;
  for (const Record* r : chain) {
    total += static_cast<std::size_t>(
        std::count_if(r->rows.begin(), r->rows.end(), [](const Row& row) { return row.active; }));
  }
  if (options.max_messages > 0 && total > options.max_messages) {
    return Status::resource_exhausted(
        "session '" + session_id + "' has more than " + std::to_string(options.max_messages) +
        " messages to load; raise LoadOptions::max_messages (0 disables the limit) to load it");
  }
  std::vector<Message> conversation;
  for (const Record* r : chain) {
    std::vector<Message> segment;
    for (const Row& stored : r->rows) {
      if (!stored.active) continue;
      if (auto m = decode_message(stored.row)) segment.push_back(std::move(*m));
    }
    apply_resume_filters(segment);
    if (options.include_ancestors) {
      append_lineage_segment(conversation, std::move(segment));
    } else {
      conversation = std::move(segment);
    }
  }
  return conversation;
}

Result<std::vector<SearchHit>> MemoryStore::search(const std::string& query,
                                                   const SearchOptions& options) {
  const std::string sanitized = sanitize_fts_query(query);
  if (sanitized.empty() || options.limit <= 0) return std::vector<SearchHit>();
  const auto groups = contains_cjk(sanitized) ? any_word_like_groups(strip_quotes(sanitized))
                                              : like_groups(sanitized);
  const std::string anchor = first_positive_term(groups);
  std::lock_guard lock(mutex_);
  std::vector<SearchHit> hits;
  for (const auto& [id, record] : sessions_) {
    for (const Row& stored : record.rows) {
      if (!stored.active && !stored.compacted) continue;  // Taken back by rewind.
      if (!passes_filters(record.info, stored.row, options) || !row_matches(stored.row, groups)) {
        continue;
      }
      SearchHit hit;
      hit.session_id = id;
      hit.message_id = stored.id;
      hit.role = stored.row.role;
      hit.snippet = snippet_around(stored.row.content.value_or(""), anchor);
      hit.timestamp = stored.row.timestamp;
      hit.tool_name = stored.row.tool_name.value_or("");
      hit.source = record.info.source;
      hit.model = record.info.model;
      hit.session_started = record.info.started_at;
      hit.archived = !stored.active;
      if (options.resolve_roots) hit.root_session_id = lineage_root(id);
      if (options.include_context) hit.context = context_of(record, stored.id);
      hits.push_back(std::move(hit));
    }
  }
  const bool oldest_first = options.order == SearchOrder::kOldest;
  std::sort(hits.begin(), hits.end(), [&](const SearchHit& a, const SearchHit& b) {
    if (a.timestamp != b.timestamp) return (a.timestamp < b.timestamp) == oldest_first;
    return (a.message_id < b.message_id) == oldest_first;
  });
  const auto offset = std::min(hits.size(), static_cast<std::size_t>(std::max(options.offset, 0)));
  hits.erase(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(offset));
  if (hits.size() > static_cast<std::size_t>(options.limit)) {
    hits.resize(static_cast<std::size_t>(options.limit));
  }
  return hits;
}

Status MemoryStore::record_usage(const std::string& session_id, const UsageDelta& delta) {
  std::lock_guard lock(mutex_);
  Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  apply_usage_delta(record->info, delta);
  return {};
}

Status MemoryStore::set_system_prompt(const std::string& session_id, const std::string& prompt) {
  std::lock_guard lock(mutex_);
  Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  record->info.system_prompt = internal::sanitize_utf8(prompt);
  return {};
}

Status MemoryStore::set_title(const std::string& session_id, const std::string& title) {
  auto clean = sanitize_title(title);
  if (!clean.ok()) return clean.status();
  std::lock_guard lock(mutex_);
  Record* record = find(session_id);
  if (record == nullptr) return session_not_found(session_id);
  if (*clean) {
    if (const Record* holder = title_holder(**clean, session_id)) {
      const auto ancestors = compression_ancestors(*record);
      if (std::find(ancestors.begin(), ancestors.end(), holder) == ancestors.end()) {
        return Status::already_exists("title '" + **clean + "' is already used by session '" +
                                      holder->info.id + "'");
      }
      find(holder->info.id)->info.title.clear();  // A continuation inherits its ancestor's title.
    }
  }
  record->info.title = clean->value_or("");
  return {};
}

}  // namespace hermes::store

namespace hermes {

std::shared_ptr<SessionStore> make_memory_store() {
  return std::make_shared<store::MemoryStore>();
}

}  // namespace hermes
