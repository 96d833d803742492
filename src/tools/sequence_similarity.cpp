#include "tools/sequence_similarity.hpp"

#include <algorithm>
#include <deque>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "safety/regex_program.hpp"

namespace hermes::internal {
namespace {

struct Block {
  std::size_t a, b, size;
};

class Matcher {
 public:
  Matcher(const std::u32string& a, const std::u32string& b) : a_(a), b_(b) {
    for (std::size_t j = 0; j < b_.size(); ++j) b2j_[b_[j]].push_back(j);
    // Long second strings: characters on more than 1% of positions never seed a match.
    if (b_.size() >= 200) {
      const std::size_t popular = b_.size() / 100 + 1;
      for (auto it = b2j_.begin(); it != b2j_.end();) {
        it = it->second.size() > popular ? b2j_.erase(it) : std::next(it);
      }
    }
  }

  std::vector<Block> matching_blocks() const {
    std::vector<Block> blocks;
    std::deque<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>> queue{
        {0, a_.size(), 0, b_.size()}};
    while (!queue.empty()) {
      auto [alo, ahi, blo, bhi] = queue.front();
      queue.pop_front();
      const Block m = longest_match(alo, ahi, blo, bhi);
      if (m.size == 0) continue;
      blocks.push_back(m);
      if (alo < m.a && blo < m.b) queue.emplace_back(alo, m.a, blo, m.b);
      if (m.a + m.size < ahi && m.b + m.size < bhi)
        queue.emplace_back(m.a + m.size, ahi, m.b + m.size, bhi);
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block& x, const Block& y) {
      return std::tie(x.a, x.b) < std::tie(y.a, y.b);
    });
    // Adjacent blocks merge into one.
    std::vector<Block> merged;
    for (const Block& blk : blocks) {
      if (!merged.empty() && merged.back().a + merged.back().size == blk.a &&
          merged.back().b + merged.back().size == blk.b) {
        merged.back().size += blk.size;
      } else {
        merged.push_back(blk);
      }
    }
    merged.push_back({a_.size(), b_.size(), 0});
    return merged;
  }

 private:
  Block longest_match(std::size_t alo, std::size_t ahi, std::size_t blo, std::size_t bhi) const {
    std::size_t besti = alo, bestj = blo, bestsize = 0;
    std::unordered_map<std::size_t, std::size_t> j2len;
    for (std::size_t i = alo; i < ahi; ++i) {
      std::unordered_map<std::size_t, std::size_t> next;
      auto it = b2j_.find(a_[i]);
      if (it != b2j_.end()) {
        for (std::size_t j : it->second) {
          if (j < blo) continue;
          if (j >= bhi) break;
          auto prev = j > 0 ? j2len.find(j - 1) : j2len.end();
          const std::size_t k = (prev == j2len.end() ? 0 : prev->second) + 1;
          next[j] = k;
          if (k > bestsize) {
            besti = i + 1 - k;
            bestj = j + 1 - k;
            bestsize = k;
          }
        }
      }
      j2len = std::move(next);
    }
    // Equal characters next to the match (popular ones included) extend it.
    while (besti > alo && bestj > blo && a_[besti - 1] == b_[bestj - 1]) {
      --besti;
      --bestj;
      ++bestsize;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi &&
           a_[besti + bestsize] == b_[bestj + bestsize])
      ++bestsize;
    return {besti, bestj, bestsize};
  }

  const std::u32string& a_;
  const std::u32string& b_;
  std::unordered_map<char32_t, std::vector<std::size_t>> b2j_;
};

}  // namespace

double similarity_ratio(std::string_view a, std::string_view b) {
  if (a == b) return 1.0;
  const std::u32string ua = to_code_points(a);
  const std::u32string ub = to_code_points(b);
  if (ua.empty() && ub.empty()) return 1.0;
  std::size_t matched = 0;
  for (const Block& blk : Matcher(ua, ub).matching_blocks()) matched += blk.size;
  return 2.0 * static_cast<double>(matched) / static_cast<double>(ua.size() + ub.size());
}

std::vector<EditOp> edit_ops(const std::u32string& a, const std::u32string& b) {
  std::vector<EditOp> ops;
  std::size_t i = 0, j = 0;
  for (const Block& blk : Matcher(a, b).matching_blocks()) {
    if (i < blk.a && j < blk.b) {
      ops.push_back({EditOp::kReplace, i, blk.a, j, blk.b});
    } else if (i < blk.a) {
      ops.push_back({EditOp::kDelete, i, blk.a, j, blk.b});
    } else if (j < blk.b) {
      ops.push_back({EditOp::kInsert, i, blk.a, j, blk.b});
    }
    i = blk.a + blk.size;
    j = blk.b + blk.size;
    if (blk.size > 0) ops.push_back({EditOp::kEqual, blk.a, i, blk.b, j});
  }
  return ops;
}

}  // namespace hermes::internal
