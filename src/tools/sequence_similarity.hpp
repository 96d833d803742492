// How alike two strings are, measured as Python's difflib.SequenceMatcher does (the
// fuzzy patch thresholds were tuned against its ratio): matching blocks found by
// repeatedly taking the longest common run, characters that are very common in a long
// second string ("autojunk") never seeding a match.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/utf8.hpp"  // to_code_points, to_utf8: the units the ranges count.

namespace hermes::internal {

// 2 * matched / (len(a) + len(b)) over code points; 1.0 when both are empty.
double similarity_ratio(std::string_view a, std::string_view b);

// One step of turning `a` into `b`: ranges in code points.
struct EditOp {
  enum Kind { kEqual, kReplace, kDelete, kInsert } kind;
  std::size_t a_begin, a_end, b_begin, b_end;
};

// The edit script from `a` to `b` (difflib's get_opcodes).
std::vector<EditOp> edit_ops(const std::u32string& a, const std::u32string& b);

}  // namespace hermes::internal
