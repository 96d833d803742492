// The fuzzy find-and-replace behind patch and skill_manage(action='patch').
#include "tools/fuzzy_match.hpp"

#include <doctest/doctest.h>

#include "tools/sequence_similarity.hpp"

using hermes::internal::fuzzy_find_and_replace;
using hermes::internal::FuzzyReplaceResult;

namespace {

FuzzyReplaceResult replace(const std::string& content, const std::string& old_s,
                           const std::string& new_s, bool all = false) {
  return fuzzy_find_and_replace(content, old_s, new_s, all);
}

}  // namespace

TEST_CASE("similarity ratios agree with difflib") {
  using hermes::internal::similarity_ratio;
  CHECK(similarity_ratio("abcd", "bcde") == doctest::Approx(0.75));
  CHECK(similarity_ratio("", "") == 1.0);
  CHECK(similarity_ratio("abc", "") == 0.0);
  CHECK(similarity_ratio("return x + 1", "return x + 2") == doctest::Approx(22.0 / 24.0));
}

TEST_CASE("an exact match wins and replace_all replaces every occurrence") {
  auto r = replace("a = 1\nb = 1\n", "= 1", "= 2", true);
  CHECK(r.error.empty());
  CHECK(r.strategy == "exact");
  CHECK(r.replacements == 2);
  CHECK(r.content == "a = 2\nb = 2\n");
}

TEST_CASE("several matches without replace_all are refused with their locations") {
  auto r = replace("x = 1\ny = 2\nx = 1\n", "x = 1", "x = 3");
  CHECK(r.replacements == 0);
  CHECK(r.error.rfind("Found 2 matches for old_string.", 0) == 0);
  CHECK(r.error.find("  L1: x = 1\n  L3: x = 1") != std::string::npos);
}

TEST_CASE("trimmed lines match despite different indentation, which is then adapted") {
  const std::string file = "def f():\n    if x:\n        return 1\n";
  auto r = replace(file, "if x:\n    return 1", "if x:\n    return 2");
  CHECK(r.strategy == "line_trimmed");
  CHECK(r.content == "def f():\n    if x:\n        return 2\n");
}

TEST_CASE("runs of blanks are normalised") {
  auto r = replace("call(a,   b)\n", "call(a, b)", "call(b, a)");
  CHECK(r.strategy == "whitespace_normalized");
  CHECK(r.content == "call(b, a)\n");
}

TEST_CASE("literal \\n escapes in old_string match real newlines") {
  auto r = replace("one\ntwo\n", "one\\ntwo", "1\n2");
  CHECK(r.strategy == "escape_normalized");
  CHECK(r.content == "1\n2\n");
}

TEST_CASE("smart quotes and dashes match ASCII and survive the replacement") {
  const std::string file = "say(\xE2\x80\x9Chello\xE2\x80\x9D) \xE2\x80\x94 done\n";
  auto r = replace(file, "say(\"hello\") -- done", "say(\"hello\") -- finished");
  CHECK(r.strategy == "unicode_normalized");
  CHECK(r.content == "say(\xE2\x80\x9Chello\xE2\x80\x9D) \xE2\x80\x94 finished\n");
}

TEST_CASE("block anchors match a block whose middle is close enough") {
  const std::string file = "start {\n  alpha();\n  beta();\n  gamma();\n}\n";
  auto r =
      replace(file, "start {\n  alpha();\n  betta();\n  gamma();\n}", "start {\n  alpha();\n}");
  CHECK(r.error.empty());
  CHECK(r.strategy == "block_anchor");
  CHECK(r.content == "start {\n  alpha();\n}\n");
}

TEST_CASE("bad requests are refused: empty, blank, identical, missing") {
  CHECK(replace("abc", "", "x").error == "old_string cannot be empty");
  CHECK(replace("abc", "  \n ", "x").error.rfind("old_string is only whitespace", 0) == 0);
  CHECK(replace("abc", "abc", "abc").error == "old_string and new_string are identical");
  CHECK(replace("abc", "zzz", "y").error == "Could not find a match for old_string in the file");
}

TEST_CASE("escape drift in a fuzzy match is refused") {
  const std::string file = "def greet():\n    msg = \"it's\"\n    return msg\n";
  auto r = replace(file, "def greet():\n    msg = \"it\\'s\"\n    return msg",
                   "def greet():\n    msg = \"it\\'s fine\"\n    return msg");
  CHECK(r.replacements == 0);
  CHECK(r.error.rfind("Escape-drift detected", 0) == 0);
}

TEST_CASE("an edit that is already in place is recognised") {
  using hermes::internal::edit_already_applied;
  CHECK(edit_already_applied("value = compute_total()\n", "value = 0", "value = compute_total()"));
  CHECK_FALSE(edit_already_applied("value = 0\nvalue = compute_total()\n", "value = 0",
                                   "value = compute_total()"));
  CHECK_FALSE(edit_already_applied("x = 1\n", "x = 0", "x = 1"));  // Too short to prove anything.
}

TEST_CASE("a failed match suggests the closest lines and whitespace differences") {
  const std::string hint =
      hermes::internal::closest_lines_hint("\treturn total", "def f():\n    return total\n");
  CHECK(hint.find("   2|     return total") != std::string::npos);
  CHECK(hint.find("Whitespace difference detected") != std::string::npos);
}
