// The syntax tree of a regular expression, between the parser and the code generator.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"
#include "safety/regex.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {

struct RegexNode {
  enum class Kind { kEmpty, kChar, kClass, kAny, kConcat, kAlt, kRepeat, kGroup, kAssert, kLook };
  Kind kind = Kind::kEmpty;
  char32_t cp = 0;
  bool icase = false;
  bool dotall = false;
  CharClass cls;
  std::vector<RegexNode> children;
  int min = 0;
  int max = 0;  // -1: unbounded
  bool greedy = true;
  int group = -1;  // Capturing group index, or -1.
  AssertKind assertion = AssertKind::kTextStart;
  bool look_ahead = true;
  bool look_negated = false;
};

struct ParsedRegex {
  RegexNode root;
  int groups = 0;
  std::map<std::string, int, std::less<>> names;
};

// Parses Python regex syntax (see regex.hpp). InvalidArgument names the position.
Result<ParsedRegex> parse_regex(std::string_view pattern, RegexOptions options);

// The possible widths (in code points) of `n`, or nullopt when unbounded or too varied.
std::optional<std::set<int>> regex_widths(const RegexNode& n);

// The most code points `n` can match, or nullopt when that is unbounded (or over a
// million, which is as good as unbounded for the cost of a look-around).
std::optional<int> regex_max_width(const RegexNode& n);

}  // namespace hermes::internal
