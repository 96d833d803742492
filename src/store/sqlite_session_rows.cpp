#include "store/sqlite_session_rows.hpp"

#include <algorithm>
#include <set>

#include "common/json_text.hpp"
#include "common/sha256.hpp"
#include "common/utf8.hpp"
#include "store/session_lineage.hpp"
#include "store/session_title.hpp"
#include "store/store_errors.hpp"
#include "store/usage_accounting.hpp"

namespace hermes::store {

const std::string_view kSelectSessionSql =
    "SELECT s.id, s.source, s.model, s.parent_session_id, s.title, "
    "COALESCE(sp.prompt, s.system_prompt), s.model_config, s.user_id, s.session_key, "
    "s.started_at, s.ended_at, s.end_reason, s.message_count, s.tool_call_count, "
    "s.api_call_count, s.input_tokens, s.output_tokens, s.cache_read_tokens, "
    "s.cache_write_tokens, s.reasoning_tokens, s.estimated_cost_usd, s.billing_provider, "
    "s.billing_base_url "
    "FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash ";

namespace {

// model_config is free-form; text that is not JSON is kept as a JSON string.
Json model_config_value(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  auto parsed = internal::parse_json(*text);
  return parsed ? std::move(*parsed) : Json(*text);
}

}  // namespace

SessionInfo read_session_row(const Statement& s) {
  SessionInfo info;
  info.id = s.text(0);
  info.source = s.text(1);
  info.model = s.text(2);
  info.parent_session_id = s.text(3);
  info.title = s.text(4);
  info.system_prompt = s.text(5);
  info.model_config = model_config_value(s.optional_text(6));
  info.user_id = s.text(7);
  info.session_key = s.text(8);
  info.started_at = s.real(9);
  info.ended_at = s.real(10);
  info.end_reason = s.text(11);
  info.message_count = s.int64(12);
  info.tool_call_count = s.int64(13);
  info.api_call_count = s.int64(14);
  info.usage.input_tokens = s.int64(15);
  info.usage.output_tokens = s.int64(16);
  info.usage.cache_read_tokens = s.int64(17);
  info.usage.cache_write_tokens = s.int64(18);
  info.usage.reasoning_tokens = s.int64(19);
  info.estimated_cost_usd = s.real(20);
  info.billing_provider = s.text(21);
  info.billing_base_url = s.text(22);
  mark_usage_reported(info);
  return info;
}

Result<std::optional<SessionInfo>> read_session(Connection& db, const std::string& id) {
  auto stmt = db.prepare(std::string(kSelectSessionSql) + "WHERE s.id = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, id);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<SessionInfo>();
  return std::optional<SessionInfo>(read_session_row(*stmt));
}

Result<bool> session_exists(Connection& db, const std::string& id) {
  auto stmt = db.prepare("SELECT 1 FROM sessions WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, id);
  return stmt->step();
}

Result<std::vector<SessionInfo>> compression_ancestors(Connection& db, const SessionInfo& session) {
  std::vector<SessionInfo> chain;
  std::set<std::string> seen = {session.id};
  SessionInfo child = session;
  while (!child.parent_session_id.empty() && chain.size() < kMaxLineageDepth) {
    if (!seen.insert(child.parent_session_id).second) break;
    auto parent = read_session(db, child.parent_session_id);
    if (!parent.ok()) return parent.status();
    if (!parent->has_value() || !is_compression_continuation(child, **parent)) break;
    chain.push_back(**parent);
    child = std::move(**parent);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

Result<std::vector<SessionInfo>> all_ancestors(Connection& db, const SessionInfo& session) {
  std::vector<SessionInfo> chain;
  std::set<std::string> seen = {session.id};
  std::string parent_id = session.parent_session_id;
  while (!parent_id.empty() && chain.size() < kMaxLineageDepth && seen.insert(parent_id).second) {
    auto parent = read_session(db, parent_id);
    if (!parent.ok()) return parent.status();
    if (!parent->has_value()) break;
    parent_id = (*parent)->parent_session_id;
    chain.push_back(std::move(**parent));
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

Result<std::string> lineage_root(Connection& db, const std::string& id) {
  std::string current = id;
  std::set<std::string> seen = {id};
  for (std::size_t depth = 0; depth < kMaxLineageDepth; ++depth) {
    auto stmt = db.prepare("SELECT parent_session_id FROM sessions WHERE id = ?");
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, current);
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    std::string parent = stmt->text(0);
    if (parent.empty() || !seen.insert(parent).second) break;
    auto exists = session_exists(db, parent);
    if (!exists.ok()) return exists.status();
    if (!*exists) break;
    current = std::move(parent);
  }
  return current;
}

// Stores `prompt` content-addressed and points the session at it (the inline column is
// the pre-dedupe layout and stays NULL).
Status store_system_prompt(Connection& db, const std::string& session_id,
                           const std::string& prompt) {
  std::optional<std::string> hash;
  if (!prompt.empty()) {
    const std::string text = internal::sanitize_utf8(prompt);
    hash = internal::sha256_hex(text);
    auto insert = db.prepare("INSERT OR IGNORE INTO system_prompts(hash, prompt) VALUES (?, ?)");
    if (!insert.ok()) return insert.status();
    HERMES_RETURN_IF_ERROR(insert->bind(1, *hash).bind(2, text).run());
  }
  auto update =
      db.prepare("UPDATE sessions SET system_prompt_hash = ?, system_prompt = NULL WHERE id = ?");
  if (!update.ok()) return update.status();
  return update->bind(1, hash).bind(2, session_id).run();
}

Status insert_session(Connection& db, const SessionInfo& info,
                      const std::optional<std::string>& title, double started_at) {
  auto stmt = db.prepare(
      "INSERT OR IGNORE INTO sessions (id, source, model, model_config, parent_session_id, "
      "user_id, session_key, started_at, title, billing_provider, billing_base_url) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, info.id).bind(2, info.source).bind_or_null(3, info.model);
  if (info.model_config.is_null()) {
    stmt->bind(4, nullptr);
  } else {
    stmt->bind(4, internal::dump_json(info.model_config));
  }
  stmt->bind_or_null(5, info.parent_session_id)
      .bind_or_null(6, info.user_id)
      .bind_or_null(7, info.session_key)
      .bind(8, started_at)
      .bind(9, title)
      .bind_or_null(10, info.billing_provider)
      .bind_or_null(11, info.billing_base_url);
  return stmt->run();
}

Result<std::vector<SessionInfo>> child_sessions(Connection& db, const std::string& parent_id) {
  auto stmt = db.prepare(std::string(kSelectSessionSql) + "WHERE s.parent_session_id = ?");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, parent_id);
  std::vector<SessionInfo> children;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) return children;
    children.push_back(read_session_row(*stmt));
  }
}

Result<std::string> next_lineage_title(Connection& db, const std::string& parent_title) {
  const std::string base = title_base(parent_title);
  auto stmt = db.prepare("SELECT title FROM sessions WHERE title = ? OR title LIKE ? ESCAPE '\\'");
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, base).bind(2, numbered_title_pattern(base));
  std::vector<std::string> used;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    used.push_back(stmt->text(0));
  }
  return next_title_in_lineage(parent_title, used);
}

namespace {

constexpr std::string_view kRecordUsageSql = R"sql(
UPDATE sessions SET
  input_tokens = COALESCE(input_tokens, 0) + ?1,
  output_tokens = COALESCE(output_tokens, 0) + ?2,
  cache_read_tokens = COALESCE(cache_read_tokens, 0) + ?3,
  cache_write_tokens = COALESCE(cache_write_tokens, 0) + ?4,
  reasoning_tokens = COALESCE(reasoning_tokens, 0) + ?5,
  api_call_count = COALESCE(api_call_count, 0) + ?6,
  estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + ?7,
  cost_status = COALESCE(?8, cost_status),
  cost_source = COALESCE(?9, cost_source),
  billing_provider = COALESCE(NULLIF(billing_provider, ''), ?10),
  billing_base_url = COALESCE(NULLIF(billing_base_url, ''), ?11),
  model = COALESCE(NULLIF(model, ''), ?12)
WHERE id = ?13)sql";

}  // namespace

Status add_usage(Connection& db, const std::string& session_id, const UsageDelta& d) {
  auto stmt = db.prepare(kRecordUsageSql);
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, d.usage.input_tokens)
      .bind(2, d.usage.output_tokens)
      .bind(3, d.usage.cache_read_tokens)
      .bind(4, d.usage.cache_write_tokens)
      .bind(5, d.usage.reasoning_tokens)
      .bind(6, d.api_calls)
      .bind(7, d.estimated_cost_usd)
      .bind_or_null(8, d.cost_status)
      .bind_or_null(9, d.cost_source)
      .bind_or_null(10, d.billing_provider)
      .bind_or_null(11, d.billing_base_url)
      .bind_or_null(12, d.model)
      .bind(13, session_id);
  HERMES_RETURN_IF_ERROR(stmt->run());
  return db.changes() > 0 ? Status() : session_not_found(session_id);
}

}  // namespace hermes::store
