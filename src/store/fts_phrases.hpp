// The phrases of an FTS5 MATCH expression, in the order FTS5 numbers them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::store {

// Each phrase of `match` as a MATCH expression of its own ("a phrase", word, prefix*), in
// the order FTS5 numbers them (left to right). Covers the expressions search builds:
// barewords, "strings" (with "" for a quote), a trailing * and the AND, OR and NOT
// operators. nullopt for anything else (columns, NEAR groups, parentheses, +, ^) and for
// what FTS5 would reject: the caller then leaves the counting to FTS5.
std::optional<std::vector<std::string>> fts_phrases(std::string_view match);

}  // namespace hermes::store
