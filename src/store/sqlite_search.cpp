// Full-text search in the SQLite store. A sanitised query goes to the word index; CJK
// text goes to the trigram index when its words are long enough for trigrams, and
// otherwise (or without FTS5, or for tool results, which the indexes keep only in part)
// to a LIKE scan over the messages themselves.
#include <algorithm>
#include <map>
#include <optional>

#include "common/text_utils.hpp"
#include "store/fts_bm25.hpp"
#include "store/fts_phrases.hpp"
#include "store/fts_query.hpp"
#include "store/search_context.hpp"
#include "store/sqlite_message_rows.hpp"
#include "store/sqlite_session_rows.hpp"
#include "store/sqlite_store.hpp"

namespace hermes::store {
namespace {

// A SELECT assembled per call with its text parameters in order; LIMIT and OFFSET go last.
struct SearchQuery {
  std::string sql;
  std::vector<std::string> params;
};

std::string placeholders(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += i == 0 ? "?" : ", ?";
  return out;
}

// Rows that are never found, whatever the query: taken back by rewind (active = 0,
// compacted = 0), or hidden scaffolding.
constexpr std::string_view kVisibleSql =
    "(m.active = 1 OR m.compacted = 1) AND COALESCE(m.display_kind, '') <> 'hidden'";

// Visibility and the caller's filters, shared by every route.
void append_filters(SearchQuery& q, const SearchOptions& o) {
  q.sql += " AND " + std::string(kVisibleSql);
  if (!o.sources.empty()) {
    q.sql += " AND s.source IN (" + placeholders(o.sources.size()) + ")";
    q.params.insert(q.params.end(), o.sources.begin(), o.sources.end());
  }
  if (!o.exclude_sources.empty()) {
    q.sql += " AND s.source NOT IN (" + placeholders(o.exclude_sources.size()) + ")";
    q.params.insert(q.params.end(), o.exclude_sources.begin(), o.exclude_sources.end());
  }
  if (!o.roles.empty()) {
    q.sql += " AND m.role IN (" + placeholders(o.roles.size()) + ")";
    q.params.insert(q.params.end(), o.roles.begin(), o.roles.end());
  }
}

// The columns every route selects after the snippet's.
constexpr std::string_view kHitTailColumns =
    "m.timestamp, m.tool_name, s.source, s.model, s.started_at, m.active";

// A row id chosen by the ranking step, with its bm25() rank.
struct RankedRow {
  int64_t id = 0;
  double rank = 0;
};

// Ranking orders by a bm25 expression rather than FTS5's rank column (the same value: the
// store never configures another rank function). ORDER BY rank makes FTS5 score and sort
// every match, position lists included, before LIMIT applies; an expression lets SQLite
// keep only the best rows in a bounded sorter. The row id settles ties, so every plan
// agrees.
std::string builtin_rank(const std::string& table) {
  return "bm25(" + table + ")";
}

// hermes_bm25 with the counts of each phrase (fts_bm25.hpp): the same score as bm25().
std::string counted_rank(const std::string& table, const FtsRankingCache::Statistics& s) {
  std::string sql = std::string(kRankingFunction) + "(" + table + ", " + std::to_string(s.rows) +
                    ", " + std::to_string(s.tokens);
  for (int64_t documents : s.documents) sql += ", " + std::to_string(documents);
  return sql + ")";
}

std::string order_by(SearchOrder order) {
  switch (order) {
    case SearchOrder::kNewest:
      return " ORDER BY m.timestamp DESC, r, m.id";
    case SearchOrder::kOldest:
      return " ORDER BY m.timestamp ASC, r, m.id";
    case SearchOrder::kRelevance:
      break;
  }
  return " ORDER BY r, m.id";
}

// The ranking step with every filter applied in SQL: one join per match.
SearchQuery ranked_joined_query(const std::string& table, const std::string& rank,
                                const std::string& match, const SearchOptions& o) {
  SearchQuery q;
  q.sql = "SELECT m.id, " + rank + " AS r FROM " + table + " JOIN messages m ON m.id = " + table +
          ".rowid JOIN sessions s ON s.id = m.session_id WHERE " + table + " MATCH ?";
  q.params.push_back(match);
  append_filters(q, o);
  q.sql += order_by(o.order) + " LIMIT ? OFFSET ?";
  return q;
}

// SQLite's generic error code: for a MATCH, the query text was not acceptable.
bool rejected_by_engine(Connection& db) {
  return (sqlite3_errcode(db.handle()) & 0xFF) == SQLITE_ERROR;
}

// A failed step: a MATCH the engine refused is the caller's input, anything else is not.
Status step_failure(Connection& db, const Status& status) {
  if (rejected_by_engine(db)) return Status::invalid_argument(status.message());
  return status;
}

Result<std::vector<RankedRow>> collect_ranked(Connection& db, Statement& stmt) {
  std::vector<RankedRow> rows;
  for (;;) {
    auto row = stmt.step();
    if (!row.ok()) return step_failure(db, row.status());
    if (!*row) return rows;
    rows.push_back({stmt.int64(0), stmt.real(1)});
  }
}

Result<std::vector<RankedRow>> rank_joined(Connection& db, const std::string& table,
                                           const std::string& rank, const std::string& match,
                                           const SearchOptions& o) {
  const SearchQuery q = ranked_joined_query(table, rank, match, o);
  auto stmt = db.prepare_uncached(q.sql);
  if (!stmt.ok()) return stmt.status();
  int index = 1;
  for (const auto& p : q.params) stmt->bind(index++, p);
  stmt->bind(index, int64_t{o.limit});
  stmt->bind(index + 1, int64_t{std::max(o.offset, 0)});
  return collect_ranked(db, *stmt);
}

// The best `count` matches by rank from the index alone, with no join per match.
Result<std::vector<RankedRow>> rank_index_only(Connection& db, const std::string& table,
                                               const std::string& rank, const std::string& match,
                                               int64_t count) {
  // The counts in a counted rank change with every query: such text is not cached.
  const std::string sql = "SELECT rowid, " + rank + " AS r FROM " + table + " WHERE " + table +
                          " MATCH ? ORDER BY r, rowid LIMIT ?";
  auto stmt = rank == builtin_rank(table) ? db.prepare(sql) : db.prepare_uncached(sql);
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, match).bind(2, count);
  return collect_ranked(db, *stmt);
}

// Whether message `id` may be found: visible, and in a session that exists.
Result<bool> findable(Connection& db, int64_t id) {
  auto stmt = db.prepare(
      "SELECT 1 FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id = ? AND " +
      std::string(kVisibleSql));
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, id);
  return stmt->step();
}

// Ranking without caller filters: nearly every match is findable, so the index alone
// ranks, and only the rows it returns are checked. Exact when every one of them passes,
// or when the index ran out of matches; otherwise nullopt (rank with the joins instead).
Result<std::optional<std::vector<RankedRow>>> rank_unfiltered(Connection& db,
                                                              const std::string& table,
                                                              const std::string& rank,
                                                              const std::string& match,
                                                              const SearchOptions& o) {
  const int64_t offset = std::max(o.offset, 0);
  const int64_t wanted = offset + o.limit;
  auto ranked = rank_index_only(db, table, rank, match, wanted);
  if (!ranked.ok()) return ranked.status();
  std::vector<RankedRow> kept;
  for (const RankedRow& row : *ranked) {
    auto ok = findable(db, row.id);
    if (!ok.ok()) return ok.status();
    if (*ok) kept.push_back(row);
  }
  if (kept.size() < ranked->size() && static_cast<int64_t>(ranked->size()) == wanted) {
    return std::optional<std::vector<RankedRow>>();
  }
  kept.erase(kept.begin(), kept.begin() + std::min<int64_t>(offset, kept.size()));
  return std::optional(std::move(kept));
}

Result<std::vector<RankedRow>> rank_matches(Connection& db, const std::string& table,
                                            const std::string& rank, const std::string& match,
                                            const SearchOptions& o) {
  const bool caller_filters = !o.sources.empty() || !o.exclude_sources.empty() || !o.roles.empty();
  if (o.order == SearchOrder::kRelevance && !caller_filters) {
    auto ranked = rank_unfiltered(db, table, rank, match, o);
    if (!ranked.ok()) return ranked.status();
    if (ranked->has_value()) return std::move(**ranked);
  }
  return rank_joined(db, table, rank, match, o);
}

// Lends row lengths to the connection's hermes_bm25 while a ranking runs, and reads how many
// lengths it still looked up in the index.
class RankingScope {
 public:
  RankingScope(Connection& db, const FtsRowLengths* lengths) : slot_(db.ranking_slot()) {
    if (slot_ == nullptr) return;
    slot_->lengths = lengths;
    slot_->length_lookups = 0;
  }
  ~RankingScope() {
    if (slot_ != nullptr) slot_->lengths = nullptr;
  }
  RankingScope(const RankingScope&) = delete;
  RankingScope& operator=(const RankingScope&) = delete;

  int64_t lookups() const { return slot_ != nullptr ? slot_->length_lookups : 0; }

 private:
  FtsRankingSlot* slot_;
};

// What a hit statement selects after the row id: session, role, snippet, the tail columns.
std::string hit_columns_sql(const std::string& table) {
  return table + ".rowid, m.session_id, m.role, snippet(" + table +
         ", -1, '>>>', '<<<', '...', 40), " + std::string(kHitTailColumns) + " FROM " + table +
         " JOIN messages m ON m.id = " + table +
         ".rowid JOIN sessions s ON s.id = m.session_id WHERE " + table + " MATCH ?";
}

SearchHit read_hit(const Statement& stmt, double rank) {
  SearchHit hit;
  hit.message_id = stmt.int64(0);
  hit.rank = rank;
  hit.session_id = stmt.text(1);
  hit.role = stmt.text(2);
  hit.snippet = stmt.text(3);
  hit.timestamp = stmt.real(4);
  hit.tool_name = stmt.text(5);
  hit.source = stmt.text(6);
  hit.model = stmt.text(7);
  hit.session_started = stmt.real(8);
  hit.archived = stmt.int64(9) == 0;
  return hit;
}

Status vanished() {
  return Status::internal("a ranked search hit vanished inside its transaction");
}

// The hits of the ranked rows, one statement each; snippets are made for these rows only.
Result<std::vector<SearchHit>> hits_one_by_one(Connection& db, const std::string& table,
                                               const std::string& match,
                                               const std::vector<RankedRow>& ranked) {
  const std::string sql = "SELECT " + hit_columns_sql(table) + " AND " + table + ".rowid = ?";
  std::vector<SearchHit> hits;
  hits.reserve(ranked.size());
  for (const RankedRow& row : ranked) {
    auto stmt = db.prepare(sql);  // Cached: each use starts from a reset statement.
    if (!stmt.ok()) return stmt.status();
    stmt->bind(1, match).bind(2, row.id);
    auto found = stmt->step();
    if (!found.ok()) return step_failure(db, found.status());
    if (!*found) return vanished();
    hits.push_back(read_hit(*stmt, row.rank));
  }
  return hits;
}

// The same from one statement. A prefix phrase makes FTS5 merge the doclists of every term
// it covers each time a statement starts, so one statement per hit repeated that merge
// for every hit (580 of 700 ms of a prefix query in the benchmark). Here the merge runs
// once: the statement walks the matches between the lowest and highest ranked ids and
// makes snippets for the ranked rows only (the unary + keeps that test out of FTS5's
// hands, which would start the statement over for each listed id).
Result<std::vector<SearchHit>> hits_in_one_pass(Connection& db, const std::string& table,
                                                const std::string& match,
                                                const std::vector<RankedRow>& ranked) {
  std::string sql = "SELECT " + hit_columns_sql(table) + " AND " + table + ".rowid >= ? AND " +
                    table + ".rowid <= ? AND +" + table + ".rowid IN (";
  for (std::size_t i = 0; i < ranked.size(); ++i) sql += i == 0 ? "?" : ", ?";
  auto stmt = db.prepare_uncached(sql + ")");
  if (!stmt.ok()) return stmt.status();
  const auto [lowest, highest] = std::minmax_element(
      ranked.begin(), ranked.end(),
      [](const RankedRow& a, const RankedRow& b) { return a.id < b.id; });
  stmt->bind(1, match).bind(2, lowest->id).bind(3, highest->id);
  std::map<int64_t, std::size_t> position;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    stmt->bind(static_cast<int>(i) + 4, ranked[i].id);
    position.emplace(ranked[i].id, i);
  }
  std::vector<std::optional<SearchHit>> found(ranked.size());
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return step_failure(db, row.status());
    if (!*row) break;
    const std::size_t i = position.at(stmt->int64(0));
    found[i] = read_hit(*stmt, ranked[i].rank);
  }
  std::vector<SearchHit> hits;
  hits.reserve(ranked.size());
  for (auto& hit : found) {
    if (!hit) return vanished();
    hits.push_back(std::move(*hit));
  }
  return hits;
}

bool has_prefix_phrase(const std::optional<std::vector<std::string>>& phrases) {
  return phrases && std::any_of(phrases->begin(), phrases->end(),
                                [](const std::string& p) { return p.back() == '*'; });
}

constexpr std::string_view kLikeTermSql =
    "(COALESCE(m.content, '') LIKE ? ESCAPE '\\' OR COALESCE(m.tool_name, '') LIKE ? ESCAPE '\\' "
    "OR COALESCE(m.tool_calls, '') LIKE ? ESCAPE '\\')";

SearchQuery like_query(const std::vector<LikeGroup>& groups, const std::string& anchor,
                       const SearchOptions& o) {
  SearchQuery q;
  q.sql =
      "SELECT m.id, m.session_id, m.role, "
      "substr(m.content, max(1, instr(m.content, ?) - 40), 120), 0, " +
      std::string(kHitTailColumns) +
      " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE (";
  q.params.push_back(anchor);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    q.sql += g == 0 ? "(" : " OR (";
    for (std::size_t t = 0; t < groups[g].size(); ++t) {
      const LikeTerm& term = groups[g][t];
      q.sql += t == 0 ? "" : " AND ";
      q.sql += term.negated ? "NOT " : "";
      q.sql += kLikeTermSql;
      const std::string pattern = "%" + escape_like(term.text) + "%";
      q.params.insert(q.params.end(), 3, pattern);
    }
    q.sql += ")";
  }
  q.sql += ")";
  append_filters(q, o);
  q.sql += o.order == SearchOrder::kOldest ? " ORDER BY m.timestamp ASC, m.id ASC"
                                           : " ORDER BY m.timestamp DESC, m.id DESC";
  q.sql += " LIMIT ? OFFSET ?";
  return q;
}

Result<std::vector<SearchHit>> run_query(Connection& db, const SearchQuery& q,
                                         const SearchOptions& o) {
  auto stmt = db.prepare_uncached(q.sql);
  if (!stmt.ok()) return stmt.status();
  int index = 1;
  for (const auto& p : q.params) stmt->bind(index++, p);
  stmt->bind(index, int64_t{o.limit});
  stmt->bind(index + 1, int64_t{std::max(o.offset, 0)});
  std::vector<SearchHit> hits;
  for (;;) {
    auto row = stmt->step();
    if (!row.ok()) return step_failure(db, row.status());
    if (!*row) return hits;
    SearchHit hit;
    hit.message_id = stmt->int64(0);
    hit.session_id = stmt->text(1);
    hit.role = stmt->text(2);
    hit.snippet = stmt->text(3);
    hit.rank = stmt->real(4);
    hit.timestamp = stmt->real(5);
    hit.tool_name = stmt->text(6);
    hit.source = stmt->text(7);
    hit.model = stmt->text(8);
    hit.session_started = stmt->real(9);
    hit.archived = stmt->int64(10) == 0;
    hits.push_back(std::move(hit));
  }
}

bool is_rejection(const Status& status) {
  return status.code() == StatusCode::kInvalidArgument;
}

Status resolve_roots(Connection& db, std::vector<SearchHit>& hits) {
  std::map<std::string, std::string> roots;
  for (auto& hit : hits) {
    auto known = roots.find(hit.session_id);
    if (known == roots.end()) {
      auto root = lineage_root(db, hit.session_id);
      if (!root.ok()) return root.status();
      known = roots.emplace(hit.session_id, std::move(*root)).first;
    }
    hit.root_session_id = known->second;
  }
  return {};
}

// The visible row next to `id` in its session: the one before or the one after.
Status add_neighbour(Connection& db, SearchHit& hit, bool before) {
  const std::string sql = std::string("SELECT ") + std::string(kMessageColumnsSql) +
                          " FROM messages m WHERE m.session_id = ? AND (m.active = 1 OR "
                          "m.compacted = 1) AND m.id " +
                          (before ? "< ? ORDER BY m.id DESC" : "> ? ORDER BY m.id ASC") +
                          " LIMIT 1";
  auto stmt = db.prepare(sql);
  if (!stmt.ok()) return stmt.status();
  stmt->bind(1, hit.session_id).bind(2, hit.message_id);
  auto row = stmt->step();
  if (!row.ok()) return row.status();
  if (!*row) return {};
  SelectedRow selected = read_message_row(*stmt);
  hit.context.push_back(context_message(selected.id, selected.row));
  return {};
}

Status add_context(Connection& db, std::vector<SearchHit>& hits) {
  for (auto& hit : hits) {
    HERMES_RETURN_IF_ERROR(add_neighbour(db, hit, /*before=*/true));
    HERMES_RETURN_IF_ERROR(add_neighbour(db, hit, /*before=*/false));
  }
  return {};
}

}  // namespace

SqliteStore::Ranking SqliteStore::ranking(Connection& db, const std::string& table,
                                          const std::optional<std::vector<std::string>>& phrases) {
  if (db.ranking_slot() == nullptr) return {builtin_rank(table), nullptr};
  if (!phrases || phrases->empty()) return {builtin_rank(table), nullptr};
  auto stats = ranking_cache_.statistics(db, table, *phrases);
  // A count that fails (a query FTS5 rejects) is reported by the ranking query itself.
  if (!stats.ok() || !stats->has_value()) return {builtin_rank(table), nullptr};
  return {counted_rank(table, **stats), (*stats)->lengths};
}

Result<std::vector<SearchHit>> SqliteStore::match_search(Connection& db, const std::string& table,
                                                         const std::string& match,
                                                         const SearchOptions& options) {
  const auto phrases = fts_phrases(match);
  const Ranking rank = ranking(db, table, phrases);
  int64_t lookups = 0;
  auto ranked = [&] {
    RankingScope scope(db, rank.lengths.get());
    auto rows = rank_matches(db, table, rank.sql, match, options);
    lookups = scope.lookups();
    return rows;
  }();
  ranking_cache_.record_length_lookups(table, lookups);
  if (!ranked.ok()) return ranked.status();
  if (ranked->empty()) return std::vector<SearchHit>();
  return has_prefix_phrase(phrases) ? hits_in_one_pass(db, table, match, *ranked)
                                  : hits_one_by_one(db, table, match, *ranked);
}

Result<std::vector<SearchHit>> SqliteStore::like_search(Connection& db,
                                                        const std::vector<LikeGroup>& groups,
                                                        const SearchOptions& options) {
  if (groups.empty()) return std::vector<SearchHit>();
  const std::string anchor = first_positive_term(groups);
  auto hits = run_query(db, like_query(groups, anchor, options), options);
  if (!hits.ok()) return hits;
  for (auto& hit : *hits) hit.snippet = mark_match(hit.snippet, anchor);
  return hits;
}

Result<std::vector<SearchHit>> SqliteStore::word_search(Connection& db,
                                                        const std::string& sanitized,
                                                        const SearchOptions& options) {
  auto hits = match_search(db, "messages_fts", sanitized, options);
  if (!hits.ok() && is_rejection(hits.status())) {
    // A query the sanitiser could not make valid ("a AND AND b") is retried as plain words.
    hits = match_search(db, "messages_fts", quote_fts_tokens(sanitized), options);
    if (!hits.ok() && is_rejection(hits.status())) hits = std::vector<SearchHit>();
  }
  if (!hits.ok() || !hits->empty()) return hits;
  // The word index puts no boundary between Latin and adjacent CJK text ("修改youer服务"
  // is one token); on a miss, the trigram index can still find the substring.
  if (indexes_.trigram && !internal::list_contains(options.roles, "tool") &&
      trigram_can_answer_words(sanitized)) {
    auto substring = match_search(db, "messages_fts_trigram",
                                  quote_fts_tokens(strip_quotes(sanitized)), options);
    if (substring.ok() || !is_rejection(substring.status())) return substring;
  }
  return hits;
}

Result<std::vector<SearchHit>> SqliteStore::cjk_search(Connection& db, const std::string& sanitized,
                                                       const SearchOptions& options) {
  const std::string raw(strip_quotes(sanitized));
  // Tool rows and cron/sub-agent transcripts are not in the trigram index.
  const bool wants_unindexed_rows = internal::list_contains(options.roles, "tool") ||
                                    internal::list_contains(options.sources, "cron") ||
                                    internal::list_contains(options.sources, "subagent");
  if (indexes_.trigram && !wants_unindexed_rows && trigram_can_answer_cjk(raw)) {
    auto hits = match_search(db, "messages_fts_trigram", quote_fts_tokens(raw), options);
    if (hits.ok() || !is_rejection(hits.status())) return hits;
  }
  return like_search(db, any_word_like_groups(raw), options);
}

Result<bool> SqliteStore::fts_marked_stale(Connection& db) {
  // Set by upstream when it detached corrupt indexes; search must not trust them.
  auto stale = db.query_text("SELECT value FROM state_meta WHERE key = 'fts_stale'");
  if (!stale.ok()) return stale.status();
  return stale->has_value();
}

Result<std::vector<SearchHit>> SqliteStore::run_search(Connection& db, const std::string& sanitized,
                                                       const SearchOptions& options) {
  auto stale = fts_marked_stale(db);
  if (!stale.ok()) return stale.status();
  // The word index holds only the head of long tool results; a tool search reads them whole.
  if (!indexes_.words || *stale || internal::list_contains(options.roles, "tool")) {
    return like_search(db, like_groups(sanitized), options);
  }
  if (contains_cjk(sanitized)) return cjk_search(db, sanitized, options);
  return word_search(db, sanitized, options);
}

Result<std::vector<SearchHit>> SqliteStore::search(const std::string& query,
                                                   const SearchOptions& options) {
  const std::string sanitized = sanitize_fts_query(query);
  if (sanitized.empty() || options.limit <= 0) return std::vector<SearchHit>();
  std::vector<SearchHit> hits;
  Status status = db_->read([&](Connection& c) -> Status {
    auto found = run_search(c, sanitized, options);
    if (!found.ok()) return found.status();
    hits = std::move(*found);
    if (options.include_context) HERMES_RETURN_IF_ERROR(add_context(c, hits));
    return options.resolve_roots ? resolve_roots(c, hits) : Status();
  });
  if (!status.ok()) return status;
  return hits;
}

}  // namespace hermes::store
