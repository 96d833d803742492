// Full-text search in the PostgreSQL store. Words go through the tsvector index (the
// 'simple' configuration: no stemming, no stop words, like FTS5's default tokenizer);
// CJK text, tool-output searches and word misses go through ILIKE substring matching,
// which pg_trgm's index serves.
#include <algorithm>
#include <map>

#include "common/text_utils.hpp"
#include "store/fts_query.hpp"
#include "store/postgres_rows.hpp"
#include "store/postgres_schema.hpp"
#include "store/postgres_store.hpp"
#include "store/search_context.hpp"

namespace hermes::store {
namespace {

constexpr std::string_view kHitColumns =
    "m.id, m.session_id, m.role, {snippet}, {rank}, m.timestamp, m.tool_name, s.source, s.model, "
    "s.started_at, m.active";

std::string in_list(PgParams& p, const std::vector<std::string>& values) {
  std::string sql;
  for (const auto& v : values) {
    sql += (sql.empty() ? "" : ", ") + p.next();
    p.add(v);
  }
  return "(" + sql + ")";
}

std::string filters(PgParams& p, const SearchOptions& o) {
  std::string sql =
      " AND (m.active = 1 OR m.compacted = 1) AND COALESCE(m.display_kind, '') <> 'hidden'";
  if (!o.sources.empty()) sql += " AND s.source IN " + in_list(p, o.sources);
  if (!o.exclude_sources.empty()) sql += " AND s.source NOT IN " + in_list(p, o.exclude_sources);
  if (!o.roles.empty()) sql += " AND m.role IN " + in_list(p, o.roles);
  return sql;
}

std::string order_and_page(PgParams& p, const SearchOptions& o, std::string_view relevance) {
  std::string sql;
  switch (o.order) {
    case SearchOrder::kNewest:
      sql = " ORDER BY m.timestamp DESC, " + std::string(relevance);
      break;
    case SearchOrder::kOldest:
      sql = " ORDER BY m.timestamp ASC, " + std::string(relevance);
      break;
    case SearchOrder::kRelevance:
      sql = " ORDER BY " + std::string(relevance);
      break;
  }
  sql += " LIMIT " + p.next();
  p.add(int64_t{o.limit});
  sql += " OFFSET " + p.next();
  p.add(int64_t{std::max(o.offset, 0)});
  return sql;
}

std::string hit_columns(std::string_view snippet, std::string_view rank) {
  std::string sql(kHitColumns);
  sql.replace(sql.find("{snippet}"), 9, snippet);
  sql.replace(sql.find("{rank}"), 6, rank);
  return sql;
}

// `term` as a tsquery expression: a phrase of its words, or a prefix.
std::string term_query(PgParams& p, const LikeTerm& term) {
  std::string sql;
  if (term.prefix && term.text.find(' ') == std::string::npos) {
    std::string quoted = "'";
    for (char c : term.text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    sql = "to_tsquery('simple'::regconfig, " + p.next() + ")";
    p.add(quoted + "':*");
  } else {
    sql = "phraseto_tsquery('simple'::regconfig, " + p.next() + ")";
    p.add(term.text);
  }
  return term.negated ? "(!! " + sql + ")" : sql;
}

// OR-groups of AND-ed terms as one tsquery expression.
std::string groups_query(PgParams& p, const std::vector<LikeGroup>& groups) {
  std::string sql;
  for (const auto& group : groups) {
    std::string conjunction;
    for (const auto& term : group)
      conjunction += (conjunction.empty() ? "" : " && ") + term_query(p, term);
    sql += (sql.empty() ? "(" : " || (") + conjunction + ")";
  }
  return sql;
}

Result<std::vector<SearchHit>> run(PgConnection& c, const std::string& sql, const PgParams& p) {
  auto rows = c.exec(sql, p);
  if (!rows.ok()) return rows.status();
  std::vector<SearchHit> hits;
  for (int i = 0; i < rows->rows(); ++i) {
    SearchHit hit;
    hit.message_id = rows->int64(i, 0);
    hit.session_id = rows->text(i, 1);
    hit.role = rows->text(i, 2);
    hit.snippet = rows->text(i, 3);
    hit.rank = rows->real(i, 4);
    hit.timestamp = rows->real(i, 5);
    hit.tool_name = rows->text(i, 6);
    hit.source = rows->text(i, 7);
    hit.model = rows->text(i, 8);
    hit.session_started = rows->real(i, 9);
    hit.archived = rows->int64(i, 10) == 0;
    hits.push_back(std::move(hit));
  }
  return hits;
}

Status add_neighbours(PgConnection& c, SearchHit& hit) {
  for (bool before : {true, false}) {
    PgParams p;
    p.add(hit.session_id).add(hit.message_id);
    auto rows =
        c.exec("SELECT " + std::string(kPgMessageColumnsSql) +
                   " FROM messages m WHERE m.session_id = $1 AND (m.active = 1 OR "
                   "m.compacted = 1) AND m.id " +
                   (before ? "< $2 ORDER BY m.id DESC" : "> $2 ORDER BY m.id ASC") + " LIMIT 1",
               p);
    if (!rows.ok()) return rows.status();
    if (rows->rows() == 0) continue;
    PgMessageRow row = pg_message_row(*rows, 0);
    hit.context.push_back(context_message(row.id, row.row));
  }
  return {};
}

Status resolve_roots(PgConnection& c, std::vector<SearchHit>& hits) {
  std::map<std::string, std::string> roots;
  for (auto& hit : hits) {
    auto known = roots.find(hit.session_id);
    if (known == roots.end()) {
      auto root = pg_lineage_root(c, hit.session_id);
      if (!root.ok()) return root.status();
      known = roots.emplace(hit.session_id, *root).first;
    }
    hit.root_session_id = known->second;
  }
  return {};
}

}  // namespace

Result<std::vector<SearchHit>> PostgresStore::word_search(PgConnection& c,
                                                          const std::string& sanitized,
                                                          const SearchOptions& o) {
  const auto groups = like_groups(sanitized);
  if (groups.empty()) return std::vector<SearchHit>();
  PgParams p;
  const std::string query = groups_query(p, groups);
  const std::string vector = "to_tsvector('simple'::regconfig, " + search_text_sql("m.") + ")";
  std::string sql = "WITH q AS (SELECT " + query + " AS query) SELECT " +
                    hit_columns(
                        "ts_headline('simple'::regconfig, COALESCE(m.content, ''), q.query, "
                        "'StartSel=>>>, StopSel=<<<, MaxWords=30, MinWords=12, "
                        "MaxFragments=1, FragmentDelimiter=...')",
                        "-ts_rank_cd(" + vector + ", q.query)") +
                    " FROM q, messages m JOIN sessions s ON s.id = m.session_id WHERE " + vector +
                    " @@ q.query" + filters(p, o);
  sql += order_and_page(p, o, "5 ASC, m.id DESC");
  auto hits = run(c, sql, p);
  if (!hits.ok() || !hits->empty()) return hits;
  // Words glued to CJK text ("修改youer服务") are one token to the parser: find them as
  // substrings.
  return like_search(c, groups, o, /*whole_tool_rows=*/false);
}

Result<std::vector<SearchHit>> PostgresStore::like_search(PgConnection& c,
                                                          const std::vector<LikeGroup>& groups,
                                                          const SearchOptions& o,
                                                          bool whole_tool_rows) {
  if (groups.empty()) return std::vector<SearchHit>();
  PgParams p;
  const std::string anchor = first_positive_term(groups);
  const std::string anchor_param = p.next();
  p.add(anchor);
  // The indexed text, unless whole tool results must be searched (the index keeps 8 KiB).
  const std::string haystack = whole_tool_rows
                                   ? "(COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') "
                                     "|| ' ' || COALESCE(m.tool_calls, ''))"
                                   : search_text_sql("m.");
  std::string where;
  for (const auto& group : groups) {
    std::string conjunction;
    for (const auto& term : group) {
      conjunction += conjunction.empty() ? "" : " AND ";
      conjunction += std::string(term.negated ? "NOT " : "") + haystack + " ILIKE " + p.next() +
                     " ESCAPE '\\'";
      p.add("%" + escape_like(term.text) + "%");
    }
    where += (where.empty() ? "(" : " OR (") + conjunction + ")";
  }
  const std::string snippet =
      "substr(COALESCE(m.content, ''), greatest(1, strpos(lower(m.content), "
      "lower(" +
      anchor_param + ")) - 40), 120)";
  std::string sql = "SELECT " + hit_columns(snippet, "0") +
                    " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE (" + where +
                    ")" + filters(p, o);
  sql += order_and_page(p,
                        o.order == SearchOrder::kRelevance
                            ? SearchOptions{o.limit, o.offset, {}, {}, {}, SearchOrder::kNewest}
                            : o,
                        "m.id DESC");
  auto hits = run(c, sql, p);
  if (!hits.ok()) return hits;
  for (auto& hit : *hits) hit.snippet = mark_match(hit.snippet, anchor);
  return hits;
}

Result<std::vector<SearchHit>> PostgresStore::search(const std::string& query,
                                                     const SearchOptions& options) {
  const std::string sanitized = sanitize_fts_query(query);
  if (sanitized.empty() || options.limit <= 0) return std::vector<SearchHit>();
  std::vector<SearchHit> hits;
  Status status = pool_->with_connection([&](PgConnection& c) -> Status {
    Result<std::vector<SearchHit>> found = std::vector<SearchHit>();
    if (internal::list_contains(options.roles, "tool")) {
      found = like_search(c, like_groups(sanitized), options, /*whole_tool_rows=*/true);
    } else if (contains_cjk(sanitized)) {
      found = like_search(c, any_word_like_groups(strip_quotes(sanitized)), options, false);
    } else {
      found = word_search(c, sanitized, options);
    }
    if (!found.ok()) return found.status();
    hits = std::move(*found);
    if (options.include_context) {
      for (auto& hit : hits) HERMES_RETURN_IF_ERROR(add_neighbours(c, hit));
    }
    return options.resolve_roots ? resolve_roots(c, hits) : Status();
  });
  if (!status.ok()) return status;
  return hits;
}

}  // namespace hermes::store
