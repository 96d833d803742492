#include "store/postgres_rows.hpp"

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

const std::string_view kPgSelectSessionSql =
    "SELECT s.id, s.source, s.model, s.parent_session_id, s.title, sp.prompt, "
    "s.model_config::text, s.user_id, s.session_key, s.started_at, s.ended_at, s.end_reason, "
    "s.message_count, s.tool_call_count, s.api_call_count, s.input_tokens, s.output_tokens, "
    "s.cache_read_tokens, s.cache_write_tokens, s.reasoning_tokens, s.estimated_cost_usd, "
    "s.billing_provider, s.billing_base_url "
    "FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash ";

const std::string_view kPgMessageColumnsSql =
    "m.id, m.active, m.compacted, m.role, m.content, m.content_is_json, m.tool_call_id, "
    "m.tool_calls, m.tool_name, m.timestamp, m.finish_reason, m.reasoning, m.reasoning_content, "
    "m.reasoning_details, m.codex_reasoning_items, m.codex_message_items, m.api_content, "
    "m.display_kind";

namespace {

// Rows per INSERT statement: PostgreSQL allows 65,535 parameters in one.
constexpr std::size_t kInsertChunk = 1000;
constexpr int kMessageParams = 16;

Result<std::vector<SessionInfo>> sessions_where(PgConnection& c, const std::string& where,
                                                const PgParams& params) {
  auto rows = c.exec(std::string(kPgSelectSessionSql) + where, params);
  if (!rows.ok()) return rows.status();
  std::vector<SessionInfo> out;
  for (int i = 0; i < rows->rows(); ++i) out.push_back(pg_session_row(*rows, i));
  return out;
}

void add_message_params(PgParams& p, const std::string& session_id, const MessageRow& row) {
  std::optional<std::string> content = row.content;
  bool is_json = false;
  if (content && content->compare(0, kJsonContentPrefix.size(), kJsonContentPrefix) == 0) {
    content->erase(0, kJsonContentPrefix.size());
    is_json = true;
  }
  p.add(session_id).add(row.role).add(content).add(is_json ? "true" : "false");
  p.add(row.tool_call_id).add(row.tool_calls).add(row.tool_name).add(row.timestamp);
  p.add(row.finish_reason).add(row.reasoning).add(row.reasoning_content);
  p.add(row.reasoning_details).add(row.codex_reasoning_items).add(row.codex_message_items);
  p.add(row.api_content).add(row.display_kind);
}

}  // namespace

SessionInfo pg_session_row(const PgResult& r, int i) {
  SessionInfo info;
  info.id = r.text(i, 0);
  info.source = r.text(i, 1);
  info.model = r.text(i, 2);
  info.parent_session_id = r.text(i, 3);
  info.title = r.text(i, 4);
  info.system_prompt = r.text(i, 5);
  if (auto config = r.optional_text(i, 6)) {
    info.model_config = internal::parse_json(*config).value_or(Json(*config));
  }
  info.user_id = r.text(i, 7);
  info.session_key = r.text(i, 8);
  info.started_at = r.real(i, 9);
  info.ended_at = r.real(i, 10);
  info.end_reason = r.text(i, 11);
  info.message_count = r.int64(i, 12);
  info.tool_call_count = r.int64(i, 13);
  info.api_call_count = r.int64(i, 14);
  info.usage.input_tokens = r.int64(i, 15);
  info.usage.output_tokens = r.int64(i, 16);
  info.usage.cache_read_tokens = r.int64(i, 17);
  info.usage.cache_write_tokens = r.int64(i, 18);
  info.usage.reasoning_tokens = r.int64(i, 19);
  info.estimated_cost_usd = r.real(i, 20);
  info.billing_provider = r.text(i, 21);
  info.billing_base_url = r.text(i, 22);
  mark_usage_reported(info);
  return info;
}

Result<std::optional<SessionInfo>> pg_read_session(PgConnection& c, const std::string& id,
                                                   bool for_update) {
  PgParams p;
  p.add(id);
  auto found =
      sessions_where(c, for_update ? "WHERE s.id = $1 FOR UPDATE OF s" : "WHERE s.id = $1", p);
  if (!found.ok()) return found.status();
  if (found->empty()) return std::optional<SessionInfo>();
  return std::optional<SessionInfo>(std::move(found->front()));
}

Result<std::vector<SessionInfo>> pg_child_sessions(PgConnection& c, const std::string& parent_id) {
  PgParams p;
  p.add(parent_id);
  return sessions_where(c, "WHERE s.parent_session_id = $1", p);
}

Result<std::vector<SessionInfo>> pg_ancestors(PgConnection& c, const SessionInfo& session) {
  std::vector<SessionInfo> chain;
  std::set<std::string> seen = {session.id};
  std::string parent_id = session.parent_session_id;
  while (!parent_id.empty() && chain.size() < kMaxLineageDepth && seen.insert(parent_id).second) {
    auto parent = pg_read_session(c, parent_id);
    if (!parent.ok()) return parent.status();
    if (!parent->has_value()) break;
    parent_id = (*parent)->parent_session_id;
    chain.push_back(std::move(**parent));
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

Result<std::string> pg_lineage_root(PgConnection& c, const std::string& id) {
  auto session = pg_read_session(c, id);
  if (!session.ok()) return session.status();
  if (!session->has_value()) return id;
  auto ancestors = pg_ancestors(c, **session);
  if (!ancestors.ok()) return ancestors.status();
  return ancestors->empty() ? id : ancestors->front().id;
}

Status pg_lock_appendable(PgConnection& c, const std::string& id) {
  PgParams p;
  p.add(id);
  auto rows = c.exec("SELECT ended_at, end_reason FROM sessions WHERE id = $1 FOR UPDATE", p);
  if (!rows.ok()) return rows.status();
  if (rows->rows() == 0) return session_not_found(id);
  if (!rows->is_null(0, 0) && rows->text(0, 1) == "compression") {
    return Status::failed_precondition("session '" + id +
                                       "' was closed by compression; its conversation continues "
                                       "in the compression child");
  }
  return {};
}

Status pg_insert_session(PgConnection& c, const SessionInfo& info,
                         const std::optional<std::string>& title, double started_at) {
  PgParams p;
  p.add(info.id).add(info.source).add_or_null(info.model);
  if (info.model_config.is_null()) {
    p.add_null();
  } else {
    p.add(internal::dump_json(info.model_config));
  }
  p.add_or_null(info.parent_session_id).add_or_null(info.user_id).add_or_null(info.session_key);
  p.add(started_at)
      .add(title)
      .add_or_null(info.billing_provider)
      .add_or_null(info.billing_base_url);
  auto done = c.exec(
      "INSERT INTO sessions (id, source, model, model_config, parent_session_id, user_id, "
      "session_key, started_at, title, billing_provider, billing_base_url) "
      "VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING",
      p);
  if (!done.ok()) return done.status();
  if (info.system_prompt.empty()) return {};
  return pg_store_system_prompt(c, info.id, info.system_prompt);
}

Status pg_store_system_prompt(PgConnection& c, const std::string& id, const std::string& prompt) {
  std::optional<std::string> hash;
  if (!prompt.empty()) {
    const std::string text = internal::sanitize_utf8(prompt);
    hash = internal::sha256_hex(text);
    PgParams p;
    p.add(*hash).add(text);
    auto inserted = c.exec(
        "INSERT INTO system_prompts (hash, prompt) VALUES ($1, $2) ON CONFLICT DO NOTHING", p);
    if (!inserted.ok()) return inserted.status();
  }
  PgParams p;
  p.add(hash).add(id);
  return c.exec("UPDATE sessions SET system_prompt_hash = $1 WHERE id = $2", p).status();
}

Result<std::optional<std::string>> pg_title_holder(PgConnection& c, const std::string& title,
                                                   const std::string& except) {
  PgParams p;
  p.add(title).add(except);
  auto rows = c.exec("SELECT id FROM sessions WHERE title = $1 AND id <> $2 LIMIT 1", p);
  if (!rows.ok()) return rows.status();
  if (rows->rows() == 0) return std::optional<std::string>();
  return std::optional<std::string>(rows->text(0, 0));
}

Result<std::string> pg_next_lineage_title(PgConnection& c, const std::string& parent_title) {
  const std::string base = title_base(parent_title);
  PgParams p;
  p.add(base).add(numbered_title_pattern(base));
  auto rows = c.exec("SELECT title FROM sessions WHERE title = $1 OR title LIKE $2 ESCAPE '\\'", p);
  if (!rows.ok()) return rows.status();
  std::vector<std::string> used;
  for (int i = 0; i < rows->rows(); ++i) used.push_back(rows->text(i, 0));
  return next_title_in_lineage(parent_title, used);
}

PgMessageRow pg_message_row(const PgResult& r, int i, int f) {
  PgMessageRow out;
  out.id = r.int64(i, f);
  out.active = r.int64(i, f + 1) != 0;
  out.compacted = r.int64(i, f + 2) != 0;
  MessageRow& row = out.row;
  row.role = r.text(i, f + 3);
  row.content = r.optional_text(i, f + 4);
  if (row.content && r.text(i, f + 5) == "t") row.content->insert(0, kJsonContentPrefix);
  row.tool_call_id = r.optional_text(i, f + 6);
  row.tool_calls = r.optional_text(i, f + 7);
  row.tool_name = r.optional_text(i, f + 8);
  row.timestamp = r.real(i, f + 9);
  row.finish_reason = r.optional_text(i, f + 10);
  row.reasoning = r.optional_text(i, f + 11);
  row.reasoning_content = r.optional_text(i, f + 12);
  row.reasoning_details = r.optional_text(i, f + 13);
  row.codex_reasoning_items = r.optional_text(i, f + 14);
  row.codex_message_items = r.optional_text(i, f + 15);
  row.api_content = r.optional_text(i, f + 16);
  row.display_kind = r.optional_text(i, f + 17);
  return out;
}

Result<std::vector<int64_t>> pg_insert_messages(PgConnection& c, const std::string& session_id,
                                                const std::vector<MessageRow>& rows) {
  std::vector<int64_t> ids;
  for (std::size_t start = 0; start < rows.size(); start += kInsertChunk) {
    const std::size_t end = std::min(rows.size(), start + kInsertChunk);
    std::string sql =
        "INSERT INTO messages (session_id, role, content, content_is_json, tool_call_id, "
        "tool_calls, tool_name, timestamp, finish_reason, reasoning, reasoning_content, "
        "reasoning_details, codex_reasoning_items, codex_message_items, api_content, "
        "display_kind) VALUES ";
    for (std::size_t i = start; i < end; ++i) {
      sql += i == start ? "(" : ", (";
      for (int k = 0; k < kMessageParams; ++k) {
        const std::size_t n = (i - start) * kMessageParams + static_cast<std::size_t>(k) + 1;
        sql += (k == 0 ? "$" : ", $") + std::to_string(n);
      }
      sql += ")";
    }
    PgParams params;
    for (std::size_t i = start; i < end; ++i) add_message_params(params, session_id, rows[i]);
    auto inserted = c.exec(sql + " RETURNING id", params);
    if (!inserted.ok()) return inserted.status();
    for (int i = 0; i < inserted->rows(); ++i) ids.push_back(inserted->int64(i, 0));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<std::vector<LiveRow>> pg_live_rows(PgConnection& c, const std::string& session_id) {
  PgParams p;
  p.add(session_id);
  auto rows = c.exec("SELECT " + std::string(kPgMessageColumnsSql) +
                         " FROM messages m WHERE m.session_id = $1 AND m.active = 1 ORDER BY m.id",
                     p);
  if (!rows.ok()) return rows.status();
  std::vector<LiveRow> live;
  for (int i = 0; i < rows->rows(); ++i) {
    PgMessageRow r = pg_message_row(*rows, i);
    live.push_back({r.id, std::move(r.row)});
  }
  return live;
}

Status pg_recompute_counters(PgConnection& c, const std::string& session_id) {
  PgParams p;
  p.add(session_id);
  return c
      .exec(
          "UPDATE sessions SET "
          "message_count = (SELECT COUNT(*) FROM messages WHERE session_id = $1 AND active = 1), "
          "tool_call_count = (SELECT COALESCE(SUM(CASE WHEN tool_calls IS NOT NULL AND "
          "left(tool_calls, 1) = '[' THEN jsonb_array_length(tool_calls::jsonb) ELSE 0 END), 0) "
          "FROM messages WHERE session_id = $1 AND active = 1) WHERE id = $1",
          p)
      .status();
}

Status pg_add_usage(PgConnection& c, const std::string& session_id, const UsageDelta& d) {
  PgParams p;
  p.add(d.usage.input_tokens).add(d.usage.output_tokens).add(d.usage.cache_read_tokens);
  p.add(d.usage.cache_write_tokens).add(d.usage.reasoning_tokens).add(d.api_calls);
  p.add(d.estimated_cost_usd).add_or_null(d.cost_status).add_or_null(d.cost_source);
  p.add_or_null(d.billing_provider).add_or_null(d.billing_base_url).add_or_null(d.model);
  p.add(session_id);
  auto updated = c.exec(
      "UPDATE sessions SET input_tokens = input_tokens + $1, output_tokens = output_tokens + $2, "
      "cache_read_tokens = cache_read_tokens + $3, cache_write_tokens = cache_write_tokens + $4, "
      "reasoning_tokens = reasoning_tokens + $5, api_call_count = api_call_count + $6, "
      "estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + $7, "
      "cost_status = COALESCE($8, cost_status), cost_source = COALESCE($9, cost_source), "
      "billing_provider = COALESCE(NULLIF(billing_provider, ''), $10), "
      "billing_base_url = COALESCE(NULLIF(billing_base_url, ''), $11), "
      "model = COALESCE(NULLIF(model, ''), $12) WHERE id = $13",
      p);
  if (!updated.ok()) return updated.status();
  return updated->affected() > 0 ? Status() : session_not_found(session_id);
}

}  // namespace hermes::store
