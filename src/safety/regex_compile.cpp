// Regex compilation: syntax tree -> Thompson-NFA program.
#include <algorithm>
#include <unordered_map>

#include "safety/regex.hpp"
#include "safety/regex_program.hpp"
#include "safety/regex_syntax.hpp"

namespace hermes::internal {
namespace {

// The instructions of a pattern, look-around bodies included, and the ranges of its
// character classes: what its expansion (a{1000} copies `a` a thousand times) may cost.
constexpr std::size_t kMaxInstructions = 200000;
constexpr std::size_t kMaxClassRanges = 1u << 20;
// Instructions times capture slots: each list of threads keeps the captures of every
// instruction, so this bounds a search's memory (8 bytes a slot, two lists).
constexpr std::size_t kMaxCaptureCells = 1u << 22;
// The work of finding which characters can start a match: the filter only speeds up
// searching, so a pattern that would take more goes without one.
constexpr std::size_t kMaxStartFilterWork = 1u << 23;

// What the code generators of one pattern (its body and its look-arounds) have spent.
struct CompileBudget {
  std::size_t instructions = 0;
  std::size_t class_ranges = 0;
};

// The per-character cost of `prog` (see RegexProgram::steps_per_char), its look-around
// bodies' already known: one step per instruction, and for each look-around instruction
// with a bounded body the setup and search of that body over at most its width.
std::uint64_t linear_cost(const RegexProgram& prog) {
  constexpr std::uint64_t kCap = std::uint64_t{1} << 40;  // Keeps the sums from overflowing.
  std::uint64_t steps = prog.insts.size();
  for (const Inst& inst : prog.insts) {
    if (inst.op != Op::kLook) continue;
    const LookAround& look = prog.looks[inst.arg];
    if (!look.max_width) continue;
    const std::uint64_t body = std::min(look.body->steps_per_char, kCap);
    steps += look.body->insts.size() + (static_cast<std::uint64_t>(*look.max_width) + 1) * body;
    if (steps > kCap) return kCap;
  }
  return steps;
}

class CodeGen {
 public:
  CodeGen(RegexProgram& prog, CompileBudget& budget) : prog_(prog), budget_(budget) {}

  bool emit(const RegexNode& n) {
    if (budget_.instructions > kMaxInstructions) return false;
    using K = RegexNode::Kind;
    switch (n.kind) {
      case K::kEmpty:
        return true;
      case K::kChar:
        return emit_char(n);
      case K::kClass:
        return add_class(n.cls, n);
      case K::kAny:
        return push({n.dotall ? Op::kAny : Op::kAnyNoNl});
      case K::kConcat:
        for (const RegexNode& c : n.children) {
          if (!emit(c)) return false;
        }
        return true;
      case K::kAlt:
        return emit_alternation(n);
      case K::kRepeat:
        return emit_repeat(n);
      case K::kGroup:
        return emit_group(n);
      case K::kAssert:
        return push({Op::kAssert, static_cast<uint32_t>(n.assertion)});
      case K::kLook:
        return emit_look(n);
    }
    return false;
  }

  bool push(Inst inst) {
    prog_.insts.push_back(inst);
    return ++budget_.instructions <= kMaxInstructions;
  }
  uint32_t pc() const { return static_cast<uint32_t>(prog_.insts.size()); }

 private:
  bool emit_char(const RegexNode& n) {
    const char32_t c = n.cp;
    const bool letter = (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z');
    if (n.icase && letter) {
      CharClass cls;
      cls.ranges.emplace_back(c | 0x20, c | 0x20);
      cls.ranges.emplace_back(c & ~0x20u, c & ~0x20u);
      return add_class(cls, n);
    }
    return push({Op::kChar, static_cast<uint32_t>(c)});
  }

  // `cls` is the class of `node`. A repeated node is emitted once per copy: the copies
  // share one class.
  bool add_class(const CharClass& cls, const RegexNode& node) {
    auto [it, added] = class_index_.try_emplace(&node, static_cast<uint32_t>(prog_.classes.size()));
    if (added) {
      budget_.class_ranges += cls.ranges.size() + cls.sets.size();
      if (budget_.class_ranges > kMaxClassRanges) return false;
      prog_.classes.push_back(cls);
    }
    return push({Op::kClass, it->second});
  }

  bool emit_alternation(const RegexNode& n) {
    std::vector<uint32_t> jumps;
    for (std::size_t i = 0; i < n.children.size(); ++i) {
      const bool last = i + 1 == n.children.size();
      uint32_t split = 0;
      if (!last) {
        split = pc();
        if (!push({Op::kSplit})) return false;
        prog_.insts[split].x = pc();
      }
      if (!emit(n.children[i])) return false;
      if (!last) {
        jumps.push_back(pc());
        if (!push({Op::kJmp})) return false;
        prog_.insts[split].y = pc();
      }
    }
    for (uint32_t j : jumps) prog_.insts[j].x = pc();
    return true;
  }

  bool emit_repeat(const RegexNode& n) {
    const RegexNode& body = n.children[0];
    for (int i = 0; i < n.min; ++i) {
      if (!emit(body)) return false;
    }
    if (n.max == -1) {
      const uint32_t split = pc();
      if (!push({Op::kSplit})) return false;
      const uint32_t body_pc = pc();
      if (!emit(body) || !push({Op::kJmp, 0, split})) return false;
      set_split(split, body_pc, pc(), n.greedy);
      return true;
    }
    std::vector<uint32_t> splits;
    for (int i = n.min; i < n.max; ++i) {
      splits.push_back(pc());
      if (!push({Op::kSplit})) return false;
      const uint32_t body_pc = pc();
      if (!emit(body)) return false;
      prog_.insts[splits.back()].x = body_pc;  // Exit patched below.
    }
    for (uint32_t s : splits) set_split(s, prog_.insts[s].x, pc(), n.greedy);
    return true;
  }

  void set_split(uint32_t split, uint32_t body, uint32_t exit, bool greedy) {
    prog_.insts[split].x = greedy ? body : exit;
    prog_.insts[split].y = greedy ? exit : body;
  }

  bool emit_group(const RegexNode& n) {
    if (n.group < 0) return emit(n.children[0]);
    const auto slot = static_cast<uint32_t>(2 * n.group);
    return push({Op::kSave, slot}) && emit(n.children[0]) && push({Op::kSave, slot + 1});
  }

  // A repeated look-around node is compiled once per program; the copies share it.
  bool emit_look(const RegexNode& n) {
    if (auto it = look_index_.find(&n); it != look_index_.end()) {
      return push({Op::kLook, it->second});
    }
    auto body = std::make_shared<RegexProgram>();
    CodeGen sub(*body, budget_);
    if (!sub.emit(n.children[0]) || !sub.push({Op::kMatch})) return false;
    LookAround look;
    look.ahead = n.look_ahead;
    look.negated = n.look_negated;
    if (!n.look_ahead) {
      auto widths = regex_widths(n.children[0]);
      look.widths.assign(widths->begin(), widths->end());
    }
    look.max_width = regex_max_width(n.children[0]);
    body->steps_per_char = linear_cost(*body);
    look.straight_line = std::all_of(body->insts.begin(), body->insts.end() - 1, [](const Inst& i) {
      return i.op == Op::kChar || i.op == Op::kClass || i.op == Op::kAny || i.op == Op::kAnyNoNl;
    });
    look.body = std::move(body);
    prog_.looks.push_back(std::move(look));
    const auto index = static_cast<uint32_t>(prog_.looks.size() - 1);
    look_index_.emplace(&n, index);
    return push({Op::kLook, index});
  }

  RegexProgram& prog_;
  CompileBudget& budget_;
  std::unordered_map<const RegexNode*, uint32_t> class_index_;
  std::unordered_map<const RegexNode*, uint32_t> look_index_;
};

// The consuming instructions reachable from `from` through zero-width ones (assertions
// and look-arounds are assumed to pass), and whether Match is reachable that way. Adds
// what it cost to `work`.
std::vector<uint32_t> consuming_closure(const RegexProgram& prog, uint32_t from,
                                        bool& reaches_match, std::size_t& work) {
  std::vector<uint32_t> out;
  std::vector<bool> seen(prog.insts.size(), false);
  work += prog.insts.size() / 64 + 1;  // Clearing `seen`.
  std::vector<uint32_t> todo{from};
  while (!todo.empty()) {
    const uint32_t pc = todo.back();
    todo.pop_back();
    if (seen[pc]) continue;
    seen[pc] = true;
    ++work;
    const Inst& inst = prog.insts[pc];
    switch (inst.op) {
      case Op::kJmp:
        todo.push_back(inst.x);
        break;
      case Op::kSplit:
        todo.push_back(inst.x);
        todo.push_back(inst.y);
        break;
      case Op::kSave:
      case Op::kAssert:
      case Op::kLook:
        todo.push_back(pc + 1);
        break;
      case Op::kMatch:
        reaches_match = true;
        break;
      default:
        out.push_back(pc);
        break;
    }
  }
  return out;
}

std::array<bool, 128> ascii_members(const RegexProgram& prog, const Inst& inst) {
  std::array<bool, 128> members{};
  for (char32_t c = 0; c < 128; ++c) {
    switch (inst.op) {
      case Op::kChar:
        members[c] = c == inst.arg;
        break;
      case Op::kClass:
        members[c] = prog.classes[inst.arg].contains(c);
        break;
      case Op::kAny:
        members[c] = true;
        break;
      default:
        members[c] = c != U'\n';
        break;
    }
  }
  return members;
}

// Fills the start filter; leaves it off when a match may be empty, or when working it
// out would cost more than kMaxStartFilterWork.
void compute_start_filter(RegexProgram& prog) {
  bool empty_match = false;
  std::size_t work = 0;
  const std::vector<uint32_t> firsts = consuming_closure(prog, prog.start, empty_match, work);
  if (empty_match) return;
  prog.first_pairs.assign(128 * 128, false);
  for (uint32_t pc : firsts) {
    const std::array<bool, 128> first = ascii_members(prog, prog.insts[pc]);
    bool one_char_match = false;
    std::array<bool, 128> second{};
    const std::vector<uint32_t> nexts = consuming_closure(prog, pc + 1, one_char_match, work);
    work += 128 * (nexts.size() + 1);
    if (work > kMaxStartFilterWork) {
      prog.first_bytes.fill(false);
      prog.first_pairs.clear();
      return;
    }
    for (uint32_t next : nexts) {
      const std::array<bool, 128> m = ascii_members(prog, prog.insts[next]);
      for (int c = 0; c < 128; ++c) second[c] = second[c] || m[c];
    }
    if (one_char_match) second.fill(true);
    for (int a = 0; a < 128; ++a) {
      if (!first[a]) continue;
      prog.first_bytes[a] = true;
      for (int b = 0; b < 128; ++b) {
        if (second[b]) prog.first_pairs[a * 128 + b] = true;
      }
    }
  }
  prog.has_start_filter = true;
}

}  // namespace

Result<Regex> Regex::compile(std::string_view pattern, RegexOptions options) {
  Result<ParsedRegex> parsed = parse_regex(pattern, options);
  if (!parsed.ok()) return parsed.status();
  auto prog = std::make_shared<RegexProgram>();
  prog->groups = parsed->groups;
  prog->names = std::move(parsed->names);
  CompileBudget budget;
  CodeGen gen(*prog, budget);
  if (!gen.push({Op::kSave, 0}) || !gen.emit(parsed->root) || !gen.push({Op::kSave, 1}) ||
      !gen.push({Op::kMatch})) {
    return Status::invalid_argument("regex error: pattern is too large (it expands to more than " +
                                    std::to_string(kMaxInstructions) + " instructions)");
  }
  const std::size_t slots = 2 * (static_cast<std::size_t>(prog->groups) + 1);
  if (prog->insts.size() * slots > kMaxCaptureCells) {
    return Status::invalid_argument("regex error: pattern is too large (" +
                                    std::to_string(prog->groups) +
                                    " capturing groups in a pattern of its size)");
  }
  prog->steps_per_char = linear_cost(*prog);
  compute_start_filter(*prog);
  return Regex(std::move(prog));
}

Regex Regex::builtin(std::string_view pattern, RegexOptions options) {
  Result<Regex> r = compile(pattern, options);
  if (!r.ok()) {
    detail::abort_with_status(Status::internal("built-in pattern '" + std::string(pattern) +
                                               "' does not compile: " + r.status().message()));
  }
  return std::move(*r);
}

}  // namespace hermes::internal
