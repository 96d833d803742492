// The regex engine behind the guards, the redactor and search_files.
#include "safety/regex.hpp"

#include <doctest/doctest.h>

#include <string>

using hermes::internal::Regex;
using hermes::internal::RegexOptions;

namespace {

bool matches(std::string_view pattern, std::string_view text, RegexOptions options = {}) {
  auto re = Regex::compile(pattern, options);
  REQUIRE_MESSAGE(re.ok(), re.status().message());
  return re->search(text);
}

std::string group(std::string_view pattern, std::string_view text, int g) {
  auto re = Regex::compile(pattern);
  REQUIRE(re.ok());
  auto m = re->find(text);
  return m ? std::string(m->group(text, g)) : "<no match>";
}

constexpr RegexOptions kIgnoreCase{true, false, false};

}  // namespace

TEST_CASE("literals, classes and anchors match as in Python") {
  CHECK(matches("abc", "xxabcxx"));
  CHECK_FALSE(matches("abc", "xxabxx"));
  CHECK(matches("^abc$", "abc\n"));  // $ also matches before a final newline.
  CHECK_FALSE(matches("^abc\\Z", "abc\n"));
  CHECK_FALSE(matches("a.c", "a\nc"));
  CHECK(matches("a.c", "a\nc", RegexOptions{false, false, true}));
  CHECK(matches("^b", "a\nb", RegexOptions{false, true, false}));
  CHECK_FALSE(matches("^b", "a\nb"));
  CHECK(matches("[^a-c]", "abcd"));
  CHECK_FALSE(matches("[^a-c]", "abc"));
}

TEST_CASE("word boundaries and the \\w \\s \\d sets behave as in Python") {
  CHECK(matches("\\brm\\s+-[^\\s]*r", "sudo rm -rf /"));
  CHECK_FALSE(matches("\\brm\\s+-[^\\s]*r", "farm -rf"));
  CHECK(matches("\\d{3}", "ab123"));
  CHECK(matches("[\\w.]+@", "a.b@c"));
  CHECK(matches("caf\\w", "caf\xC3\xA9"));  // Non-ASCII letters are word characters.
}

TEST_CASE("counted repetition covers exact, open and bounded counts") {
  CHECK_FALSE(matches("a{3}", "aa"));
  CHECK(matches("a{3}", "aaa"));
  CHECK(matches("a{2,}b", "aaab"));
  CHECK(matches("x{,2}y", "y"));
  CHECK(matches("a{2,3}$", "aaa"));
  CHECK(matches("a{x", "a{x"));  // Not a quantifier: a literal brace.
}

TEST_CASE("look-ahead and fixed-width look-behind work, negated or not") {
  CHECK(matches("(?<![\\w.~-])/dev/sd[a-z]", "dd of=/dev/sda"));
  CHECK_FALSE(matches("(?<![\\w.~-])/dev/sd[a-z]", "~/dev/sdk"));
  CHECK(matches("DELETE\\s+FROM\\b(?![^\\n]*\\bWHERE\\b)", "delete from t", kIgnoreCase));
  CHECK_FALSE(
      matches("DELETE\\s+FROM\\b(?![^\\n]*\\bWHERE\\b)", "delete from t where x", kIgnoreCase));
  CHECK(matches("(?<=\\\\u[0-9a-f]{4})x", "\\u00e9x"));
  CHECK(matches("\\A(?=[\\s\\S]*\\bstop\\b)(?=[\\s\\S]*\\bhermes\\b)", "hermes; x stop"));
}

TEST_CASE("scoped flags switch case sensitivity for part of a pattern") {
  CHECK(matches("(?i)HELLO", "hello"));
  CHECK(matches("git\\s+branch\\s+(?-i:-D)\\b", "GIT branch -D x", kIgnoreCase));
  CHECK_FALSE(matches("git\\s+branch\\s+(?-i:-D)\\b", "git branch -d x", kIgnoreCase));
}

TEST_CASE("UTF-8 text is matched by code point") {
  CHECK(matches("\xC3\xA9+", "caf\xC3\xA9\xC3\xA9"));
  CHECK_FALSE(matches("[\xC3\xA9]", "e"));
  CHECK(matches("^.$", "\xC3\xA9"));
  CHECK(matches("[^a]", "\xFF"));  // An invalid byte is one character.
}

TEST_CASE("captures follow leftmost-first priority, greedy and lazy") {
  CHECK(group("(a+)(b*)", "xaaabbc", 1) == "aaa");
  CHECK(group("(a+?)(a*)", "aaa", 1) == "a");
  CHECK(group("(?P<k>\\w+)=(\\S+)", "  KEY=val x", 2) == "val");
  CHECK(group("(a|ab)(c|bcd)(d*)", "abcd", 2) == "bcd");
  auto re = Regex::compile("(?P<name>x)");
  REQUIRE(re.ok());
  CHECK(re->group_index("name") == 1);
  CHECK(re->group_index("other") == -1);
}

TEST_CASE("replace substitutes every non-overlapping match") {
  auto re = Regex::compile("\\d+");
  REQUIRE(re.ok());
  CHECK(re->replace("a1b22c333", [](const Regex::Match&) { return std::string("#"); }) == "a#b#c#");
  auto empty = Regex::compile("x*");
  REQUIRE(empty.ok());
  CHECK(empty->replace("ab", [](const Regex::Match&) { return std::string("-"); }) == "-a-b-");
}

TEST_CASE("full_match and match_at are anchored") {
  auto re = Regex::compile("[a-f0-9]+");
  REQUIRE(re.ok());
  CHECK(re->full_match("deadbeef"));
  CHECK_FALSE(re->full_match("deadbeefz"));
  CHECK(re->match_at("zz00", 2).has_value());
  CHECK_FALSE(re->match_at("zz00", 0).has_value());
}

TEST_CASE("malformed patterns are errors, not crashes") {
  for (const char* bad : {"(a", "a)", "[abc", "*a", "\\1", "(?<=a+)b", "a{3,2}", "\\q", "(?P<x"}) {
    auto re = Regex::compile(bad);
    CHECK_MESSAGE(!re.ok(), bad);
  }
}

TEST_CASE("pathological patterns and huge inputs stay linear") {
  auto nested = Regex::compile("(a*)*b");
  REQUIRE(nested.ok());
  CHECK_FALSE(nested->search(std::string(2000, 'a')));  // Exponential for a backtracker.
  std::string big(300'000, 'a');
  big += 'b';
  auto re = Regex::compile("[a-z]+b");
  REQUIRE(re.ok());
  CHECK(re->search(big));  // std::regex overflows the stack here.
}

namespace {

std::string compile_error(std::string_view pattern) {
  auto re = Regex::compile(pattern);
  return re.ok() ? "<compiled>" : re.status().message();
}

std::string nested_groups(int levels) {
  return std::string(static_cast<std::size_t>(levels), '(') + "a" +
         std::string(static_cast<std::size_t>(levels), ')');
}

}  // namespace

TEST_CASE("groups nested a hundred thousand deep are a compile error, not a stack overflow") {
  using hermes::internal::kRegexMaxNesting;
  CHECK(compile_error(nested_groups(100000)) ==
        "regex error at position 100: too deeply nested (more than 100 levels of groups and "
        "quantifiers)");
  CHECK(compile_error(std::string(100000, '(')).find("too deeply nested") != std::string::npos);
  std::string looks;
  for (int i = 0; i < 100000; ++i) looks += "(?=";
  CHECK(compile_error(looks).find("too deeply nested") != std::string::npos);
  CHECK(compile_error(nested_groups(kRegexMaxNesting)) == "<compiled>");
  CHECK(compile_error(nested_groups(kRegexMaxNesting + 1)).find("too deeply nested") !=
        std::string::npos);
}

TEST_CASE("quantifiers stacked on one atom count as nesting") {
  CHECK(compile_error("a" + std::string(100000, '*')).find("too deeply nested") !=
        std::string::npos);
  CHECK(matches("a{2}{3}", "aaaaaa"));
  CHECK_FALSE(matches("^a{2}{3}$", "aaaaa"));
}

TEST_CASE("look-around bodies share the pattern's size limit") {
  // Each body alone is within the limit; together they are not.
  CHECK(compile_error("(?=(?:a{1000}){150})").find("too large") == std::string::npos);
  CHECK(compile_error("(?=(?:a{1000}){150})(?=(?:b{1000}){150})").find("pattern is too large") !=
        std::string::npos);
  // A look-around repeated by a quantifier is compiled once.
  auto re = Regex::compile("(?:(?=x{2000})x){100}");
  REQUIRE(re.ok());
  CHECK(re->search(std::string(2100, 'x')));
  CHECK_FALSE(re->search(std::string(1999, 'x')));
}

TEST_CASE("many capturing groups in a large pattern are refused before a search allocates them") {
  std::string groups;
  for (int i = 0; i < 3000; ++i) groups += "(a)";
  CHECK(compile_error(groups).find("capturing groups") != std::string::npos);
  CHECK(compile_error("(a)(b)(c)(d)(e)") == "<compiled>");
}

TEST_CASE(
    "a pattern with a huge set of possible first characters compiles without a start filter") {
  // Sixty thousand optional atoms: every one can start a match.
  auto re = Regex::compile("(?:(?:a?b?){200}){150}c");
  REQUIRE(re.ok());
  CHECK(re->search("xxabababc"));
  CHECK_FALSE(re->search("xxababab"));
}

TEST_CASE("a quadratic look-ahead search stops at its work budget with an error naming it") {
  CHECK(hermes::internal::kRegexWorkBudget == 20'000'000);
  // Every position re-reads the rest of the line looking for a lower-case letter.
  auto re = Regex::compile("(?=[^.]*[a-z])[A-Z]{16}");
  REQUIRE(re.ok());
  const std::string text(20000, 'A');
  const auto found = re->try_search(text, 1'000'000);
  REQUIRE_FALSE(found.ok());
  CHECK(found.status().code() == hermes::StatusCode::kResourceExhausted);
  CHECK(found.status().message().rfind("the regex needs more than 1000000 steps on this text", 0) ==
        0);
  CHECK_FALSE(re->try_find(text, 0, 1'000'000).ok());
  // The same text with the letter it looks for is found within a budget a few times larger
  // (sixteen positions each re-read the line before the match is complete).
  const auto cheap = re->try_find(text + "a", 0, 5'000'000);
  REQUIRE(cheap.ok());
  CHECK(cheap->has_value());
}

TEST_CASE(
    "hermes' own patterns get their linear cost: without unbounded look-arounds they never run "
    "out") {
  // Four hundred alternatives tried at each of sixteen thousand positions: about 22
  // million steps, more than the fixed allowance, all of them linear. Were the search
  // stopped at the allowance, search() would answer "a possible match".
  std::string words;
  for (int i = 0; i < 400; ++i)
    words += (i ? "|" : "") + std::string("a") + std::to_string(i) + "z";
  auto re = Regex::compile("(?:" + words + ")+!");
  REQUIRE(re.ok());
  std::string text;
  while (text.size() < 16000) text += "a1za2za3z";
  CHECK_FALSE(re->search(text));
}

TEST_CASE("a built-in search that runs out of budget answers as a guard needs: a possible match") {
  auto re = Regex::compile("(?=[^.]*[a-z])[A-Z]{16}");
  REQUIRE(re.ok());
  const std::string text(10000, 'A');  // About 200 million steps: past the allowance.
  CHECK(re->search(text));
}
