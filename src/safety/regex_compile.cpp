// Regex compilation: syntax tree -> Thompson-NFA program.
#include <algorithm>

#include "safety/regex.hpp"
#include "safety/regex_program.hpp"
#include "safety/regex_syntax.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxInstructions = 200000;

class CodeGen {
 public:
  explicit CodeGen(RegexProgram& prog) : prog_(prog) {}

  bool emit(const RegexNode& n) {
    if (prog_.insts.size() > kMaxInstructions) return false;
    using K = RegexNode::Kind;
    switch (n.kind) {
      case K::kEmpty:
        return true;
      case K::kChar:
        return emit_char(n);
      case K::kClass:
        return add_class(n.cls);
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
    return prog_.insts.size() <= kMaxInstructions;
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
      return add_class(cls);
    }
    return push({Op::kChar, static_cast<uint32_t>(c)});
  }

  bool add_class(const CharClass& cls) {
    prog_.classes.push_back(cls);
    return push({Op::kClass, static_cast<uint32_t>(prog_.classes.size() - 1)});
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

  bool emit_look(const RegexNode& n) {
    auto body = std::make_shared<RegexProgram>();
    CodeGen sub(*body);
    if (!sub.emit(n.children[0]) || !sub.push({Op::kMatch})) return false;
    LookAround look;
    look.ahead = n.look_ahead;
    look.negated = n.look_negated;
    if (!n.look_ahead) {
      auto widths = regex_widths(n.children[0]);
      look.widths.assign(widths->begin(), widths->end());
    }
    look.straight_line = std::all_of(body->insts.begin(), body->insts.end() - 1, [](const Inst& i) {
      return i.op == Op::kChar || i.op == Op::kClass || i.op == Op::kAny || i.op == Op::kAnyNoNl;
    });
    look.body = std::move(body);
    prog_.looks.push_back(std::move(look));
    return push({Op::kLook, static_cast<uint32_t>(prog_.looks.size() - 1)});
  }

  RegexProgram& prog_;
};

// The consuming instructions reachable from `from` through zero-width ones (assertions
// and look-arounds are assumed to pass), and whether Match is reachable that way.
std::vector<uint32_t> consuming_closure(const RegexProgram& prog, uint32_t from,
                                        bool& reaches_match) {
  std::vector<uint32_t> out;
  std::vector<bool> seen(prog.insts.size(), false);
  std::vector<uint32_t> todo{from};
  while (!todo.empty()) {
    const uint32_t pc = todo.back();
    todo.pop_back();
    if (seen[pc]) continue;
    seen[pc] = true;
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

// Fills the start filter; leaves it off when a match may be empty.
void compute_start_filter(RegexProgram& prog) {
  bool empty_match = false;
  const std::vector<uint32_t> firsts = consuming_closure(prog, prog.start, empty_match);
  if (empty_match) return;
  prog.first_pairs.assign(128 * 128, false);
  for (uint32_t pc : firsts) {
    const std::array<bool, 128> first = ascii_members(prog, prog.insts[pc]);
    bool one_char_match = false;
    std::array<bool, 128> second{};
    for (uint32_t next : consuming_closure(prog, pc + 1, one_char_match)) {
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
  CodeGen gen(*prog);
  if (!gen.push({Op::kSave, 0}) || !gen.emit(parsed->root) || !gen.push({Op::kSave, 1}) ||
      !gen.push({Op::kMatch})) {
    return Status::invalid_argument("regex error: pattern is too large");
  }
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
