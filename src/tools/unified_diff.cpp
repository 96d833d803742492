// Unified diffs for the patch tool's result, grouped the way difflib groups them.
#include <map>

#include "tools/file_tools.hpp"
#include "tools/sequence_similarity.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kContext = 3;

std::vector<std::string> split_keep_ends(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    e = e == std::string::npos ? text.size() : e + 1;
    out.push_back(text.substr(b, e - b));
    b = e;
  }
  return out;
}

// difflib's "start,length" with its conventions for one and zero lines.
std::string range(std::size_t begin, std::size_t end) {
  const std::size_t length = end - begin;
  if (length == 1) return std::to_string(begin + 1);
  return std::to_string(length == 0 ? begin : begin + 1) + "," + std::to_string(length);
}

// Edit operations cut into hunks with at most kContext equal lines around each change.
std::vector<std::vector<EditOp>> grouped(std::vector<EditOp> ops) {
  if (ops.empty()) ops.push_back({EditOp::kEqual, 0, 1, 0, 1});
  if (ops.front().kind == EditOp::kEqual) {
    EditOp& f = ops.front();
    f.a_begin = std::max(f.a_begin, f.a_end > kContext ? f.a_end - kContext : 0);
    f.b_begin = std::max(f.b_begin, f.b_end > kContext ? f.b_end - kContext : 0);
  }
  if (ops.back().kind == EditOp::kEqual) {
    EditOp& l = ops.back();
    l.a_end = std::min(l.a_end, l.a_begin + kContext);
    l.b_end = std::min(l.b_end, l.b_begin + kContext);
  }
  std::vector<std::vector<EditOp>> groups;
  std::vector<EditOp> group;
  for (const EditOp& op : ops) {
    if (op.kind == EditOp::kEqual && op.a_end - op.a_begin > 2 * kContext) {
      group.push_back(
          {EditOp::kEqual, op.a_begin, op.a_begin + kContext, op.b_begin, op.b_begin + kContext});
      groups.push_back(std::move(group));
      group.clear();
      group.push_back(
          {EditOp::kEqual, op.a_end - kContext, op.a_end, op.b_end - kContext, op.b_end});
      continue;
    }
    group.push_back(op);
  }
  if (!group.empty() && !(group.size() == 1 && group[0].kind == EditOp::kEqual))
    groups.push_back(std::move(group));
  return groups;
}

}  // namespace

std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& name) {
  if (before == after) return "";
  const std::vector<std::string> a = split_keep_ends(before);
  const std::vector<std::string> b = split_keep_ends(after);
  // Lines become symbols, so the character matcher diffs lines.
  std::map<std::string, char32_t> ids;
  auto encode = [&](const std::vector<std::string>& lines) {
    std::u32string out;
    for (const std::string& l : lines)
      out += ids.emplace(l, static_cast<char32_t>(ids.size() + 1)).first->second;
    return out;
  };
  const std::u32string ua = encode(a);
  const std::u32string ub = encode(b);
  auto line = [](char prefix, const std::string& text) {
    std::string l = prefix + text;
    if (l.back() != '\n') l += '\n';
    return l;
  };
  std::string out = "--- a/" + name + "\n+++ b/" + name + "\n";
  for (const auto& group : grouped(edit_ops(ua, ub))) {
    const EditOp& first = group.front();
    const EditOp& last = group.back();
    out += "@@ -" + range(first.a_begin, last.a_end) + " +" + range(first.b_begin, last.b_end) +
           " @@\n";
    for (const EditOp& op : group) {
      if (op.kind == EditOp::kEqual) {
        for (std::size_t i = op.a_begin; i < op.a_end; ++i) out += line(' ', a[i]);
        continue;
      }
      for (std::size_t i = op.a_begin; i < op.a_end; ++i) out += line('-', a[i]);
      for (std::size_t j = op.b_begin; j < op.b_end; ++j) out += line('+', b[j]);
    }
  }
  return out;
}

}  // namespace hermes::internal
