// Turning what a user or model typed into a full-text query that cannot be a syntax
// error, and deciding which index can answer it.
//
// FTS5 gives meaning to quotes, parentheses, colons, "AND"/"OR"/"NOT", "*" and more; a raw
// query containing any of them either fails or means something else. The sanitiser keeps
// balanced "quoted phrases", drops the other special characters, and quotes dotted,
// hyphenated and underscored words (chat-send, P2.2, my_app.config.ts) so they match as
// written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::store {

// Queries are cut to this many characters before any processing.
inline constexpr std::size_t kMaxQueryChars = 2048;

// `query` made safe for FTS5 MATCH. Empty when nothing searchable is left.
std::string sanitize_fts_query(std::string_view query);

// True when `text` has a character of a CJK script (ideographs, kana, hangul, CJK
// punctuation).
bool contains_cjk(std::string_view text);

// The whitespace-separated words of `query`, without AND/OR/NOT.
std::vector<std::string> non_operator_tokens(std::string_view query);

// Every word of `query` wrapped in quotes (AND/OR/NOT kept as operators): a MATCH
// expression that cannot fail to parse as long as it has no dangling operator.
std::string quote_fts_tokens(std::string_view query);

// `query` without surrounding double quotes and whitespace.
std::string_view strip_quotes(std::string_view query);

// Whether the trigram index can answer a CJK query: at least 3 CJK characters in all and
// in every CJK word (a shorter word produces no trigram and, with the implicit AND, would
// empty the result).
bool trigram_can_answer_cjk(std::string_view query);

// Whether the trigram index can answer a non-CJK query: every word has 3 characters or more.
bool trigram_can_answer_words(std::string_view query);

// A query as substring terms: OR-separated groups of AND-ed terms, for the LIKE scan that
// serves CJK queries too short for trigrams, tool-result searches and stores without FTS5.
struct LikeTerm {
  std::string text;
  bool negated = false;  // Preceded by NOT: rows containing it are excluded.
  bool prefix = false;   // Written with a trailing "*": a word prefix for word indexes.
};
using LikeGroup = std::vector<LikeTerm>;
// Groups without any positive term are dropped (they would match everything).
std::vector<LikeGroup> like_groups(std::string_view query);

// The text of the first term that is not negated: the one a snippet marks. "" when none.
std::string first_positive_term(const std::vector<LikeGroup>& groups);

// One group per word of `query`: rows containing any of the words match. Short CJK
// queries are searched this way.
std::vector<LikeGroup> any_word_like_groups(std::string_view query);

// `text` with LIKE's wildcards escaped for ESCAPE '\'.
std::string escape_like(std::string_view text);

// `text` with the first occurrence of `term` (ASCII case-insensitively) marked >>>like
// this<<<, as full-text snippets are.
std::string mark_match(const std::string& text, std::string_view term);

}  // namespace hermes::store
