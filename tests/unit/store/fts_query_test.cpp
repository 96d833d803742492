#include "store/fts_query.hpp"

#include <doctest/doctest.h>

#include "hermes/json.hpp"
#include "unit/store/sqlite_test_support.hpp"

using namespace hermes::store;

namespace {

std::string describe(const std::vector<LikeGroup>& groups) {
  std::string out;
  for (const auto& group : groups) {
    out += "(";
    for (const auto& term : group) out += (term.negated ? "-" : "+") + term.text + " ";
    out += ")";
  }
  return out;
}

}  // namespace

TEST_CASE("the sanitiser turns queries into safe MATCH text as upstream does") {
  const auto fixture = hermes::testing::load_store_fixture("fts_query_cases.json");
  REQUIRE(fixture["cases"].size() > 30);
  for (const auto& c : fixture["cases"]) {
    const std::string query = c["query"];
    CAPTURE(query);
    CHECK(sanitize_fts_query(query) == c["sanitized"].get<std::string>());
  }
}

TEST_CASE("the sanitiser caps the query length and survives NUL and invalid UTF-8") {
  CHECK(sanitize_fts_query(std::string(10'000, 'a')).size() == kMaxQueryChars);
  CHECK(sanitize_fts_query(std::string("a\0\"b\"", 5)) == "a \"b\"");
  CHECK(sanitize_fts_query("\xff\xfe word") == "\xEF\xBF\xBD\xEF\xBF\xBD word");
  CHECK(sanitize_fts_query(std::string(3'000, '(')).empty());
}

TEST_CASE("CJK text is recognised in every script the search routes") {
  CHECK(contains_cjk("机器学习"));
  CHECK(contains_cjk("ラーメン"));
  CHECK(contains_cjk("ひらがな"));
  CHECK(contains_cjk("한국어"));
  CHECK(contains_cjk("mixed 中 text"));
  CHECK_FALSE(contains_cjk("plain ascii"));
  CHECK_FALSE(contains_cjk("café"));
}

TEST_CASE("the trigram index answers CJK queries only with three or more CJK characters per word") {
  CHECK(trigram_can_answer_cjk("机器学习"));
  CHECK(trigram_can_answer_cjk("计算机 OR 日本語"));
  CHECK_FALSE(trigram_can_answer_cjk("学习"));
  CHECK_FALSE(trigram_can_answer_cjk("广西 OR 桂林 OR 漓江"));
  CHECK_FALSE(trigram_can_answer_cjk("机器学习 学习"));
  CHECK(trigram_can_answer_words("youer"));
  CHECK_FALSE(trigram_can_answer_words("yo"));
  CHECK_FALSE(trigram_can_answer_words("AND"));
}

TEST_CASE("tokens are quoted for MATCH with operators kept") {
  CHECK(quote_fts_tokens("foo AND bar") == "\"foo\" AND \"bar\"");
  CHECK(quote_fts_tokens("say \"hi\"") == "\"say\" \"\"\"hi\"\"\"");
  CHECK(non_operator_tokens("a OR b not c") == std::vector<std::string>{"a", "b", "c"});
  CHECK(strip_quotes("\"\" spaced \"") == "spaced");
}

TEST_CASE("substring terms follow FTS boolean rules") {
  CHECK(describe(like_groups("alpha beta")) == "(+alpha +beta )");
  CHECK(describe(like_groups("alpha OR beta")) == "(+alpha )(+beta )");
  CHECK(describe(like_groups("alpha NOT beta")) == "(+alpha -beta )");
  CHECK(describe(like_groups("\"two words\" AND prefix*")) == "(+two words +prefix )");
  CHECK(describe(like_groups("NOT alone")) == "");
  CHECK(describe(like_groups("OR OR x")) == "(+x )");
  CHECK(describe(any_word_like_groups("学习 AND 机器")) == "(+学习 )(+机器 )");
}

TEST_CASE("LIKE wildcards are escaped") {
  CHECK(escape_like("100%_done\\") == "100\\%\\_done\\\\");
}

TEST_CASE("a match is marked like a full-text snippet") {
  CHECK(mark_match("Hello World", "world") == "Hello >>>World<<<");
  CHECK(mark_match("no match here", "zzz") == "no match here");
}
