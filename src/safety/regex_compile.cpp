// Regex compilation: Python-syntax pattern -> syntax tree -> Thompson-NFA program.
#include <algorithm>
#include <cctype>
#include <set>

#include "safety/regex.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxInstructions = 200000;
constexpr int kMaxRepeat = 4096;

struct Node {
  enum class Kind { kEmpty, kChar, kClass, kAny, kConcat, kAlt, kRepeat, kGroup, kAssert, kLook };
  Kind kind = Kind::kEmpty;
  char32_t cp = 0;
  bool icase = false;
  bool dotall = false;
  CharClass cls;
  std::vector<Node> children;
  int min = 0;
  int max = 0;  // -1: unbounded
  bool greedy = true;
  int group = -1;  // Capturing group index, or -1.
  AssertKind assertion = AssertKind::kTextStart;
  bool look_ahead = true;
  bool look_negated = false;
};

struct Flags {
  bool icase = false;
  bool multiline = false;
  bool dotall = false;
};

class Parser {
 public:
  Parser(std::string_view pattern, Flags flags) : p_(pattern), flags_(flags) {}

  Result<Node> parse() {
    Node root = parse_alternation();
    if (!error_.empty()) return Status::invalid_argument(error_);
    if (pos_ < p_.size()) return fail_status("unbalanced parenthesis");
    return root;
  }
  int groups() const { return groups_; }
  std::map<std::string, int, std::less<>>& names() { return names_; }

 private:
  Status fail_status(const std::string& what) const {
    return Status::invalid_argument("regex error at position " + std::to_string(pos_) + ": " + what);
  }
  void fail(const std::string& what) {
    if (error_.empty()) error_ = fail_status(what).message();
    pos_ = p_.size();
  }
  bool eof() const { return pos_ >= p_.size(); }
  char peek() const { return eof() ? '\0' : p_[pos_]; }
  bool accept(char c) {
    if (peek() != c || eof()) return false;
    ++pos_;
    return true;
  }
  bool accept(std::string_view s) {
    if (p_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  char32_t next_char() {
    Utf8Char c = decode_utf8_at(p_, pos_);
    pos_ += c.length;
    return c.cp;
  }

  Node parse_alternation() {
    Node first = parse_concat();
    if (peek() != '|') return first;
    Node alt;
    alt.kind = Node::Kind::kAlt;
    alt.children.push_back(std::move(first));
    while (!eof() && accept('|')) alt.children.push_back(parse_concat());
    return alt;
  }

  Node parse_concat() {
    Node seq;
    seq.kind = Node::Kind::kConcat;
    while (!eof() && peek() != '|' && peek() != ')') {
      if (auto atom = parse_repeat()) seq.children.push_back(std::move(*atom));
    }
    if (seq.children.size() == 1) return std::move(seq.children[0]);
    return seq;
  }

  std::optional<Node> parse_repeat() {
    std::optional<Node> atom = parse_atom();
    if (!atom) return atom;
    while (!eof()) {
      int min = 0;
      int max = 0;
      const std::size_t save = pos_;
      if (accept('*')) {
        min = 0, max = -1;
      } else if (accept('+')) {
        min = 1, max = -1;
      } else if (accept('?')) {
        min = 0, max = 1;
      } else if (peek() == '{' && parse_counted(min, max)) {
      } else {
        break;
      }
      if (atom->kind == Node::Kind::kAssert || atom->kind == Node::Kind::kEmpty) {
        pos_ = save;
        fail("nothing to repeat");
        return std::nullopt;
      }
      if (max != -1 && (min > max || max > kMaxRepeat)) {
        fail("bad repetition count");
        return std::nullopt;
      }
      Node rep;
      rep.kind = Node::Kind::kRepeat;
      rep.min = min;
      rep.max = max;
      if (accept('?')) {
        rep.greedy = false;
      } else {
        accept('+');  // Possessive: treated as greedy.
      }
      rep.children.push_back(std::move(*atom));
      atom = std::move(rep);
    }
    return atom;
  }

  // {m}, {m,}, {,n}, {m,n}. Anything else leaves `{` to be read as a literal.
  bool parse_counted(int& min, int& max) {
    std::size_t i = pos_ + 1;
    auto number = [&](int& out) {
      std::size_t start = i;
      long value = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9') {
        value = std::min<long>(value * 10 + (p_[i] - '0'), 1000000);
        ++i;
      }
      out = static_cast<int>(value);
      return i > start;
    };
    const bool has_min = number(min);
    if (!has_min) min = 0;
    if (i < p_.size() && p_[i] == '}') {
      if (!has_min) return false;
      max = min;
    } else if (i < p_.size() && p_[i] == ',') {
      ++i;
      if (!number(max)) max = -1;
      if (i >= p_.size() || p_[i] != '}') return false;
    } else {
      return false;
    }
    pos_ = i + 1;
    return true;
  }

  std::optional<Node> parse_atom() {
    const char c = peek();
    if (c == '(') return parse_group();
    if (c == '[') return parse_class();
    Node n;
    if (accept('.')) {
      n.kind = Node::Kind::kAny;
      n.dotall = flags_.dotall;
      return n;
    }
    if (accept('^')) {
      n.kind = Node::Kind::kAssert;
      n.assertion = flags_.multiline ? AssertKind::kLineStart : AssertKind::kTextStart;
      return n;
    }
    if (accept('$')) {
      n.kind = Node::Kind::kAssert;
      n.assertion = flags_.multiline ? AssertKind::kLineEnd : AssertKind::kTextEndOrFinalNl;
      return n;
    }
    if (c == '*' || c == '+' || c == '?') {
      fail("nothing to repeat");
      return std::nullopt;
    }
    if (c == '\\') return parse_escape();
    n.kind = Node::Kind::kChar;
    n.cp = next_char();
    n.icase = flags_.icase;
    return n;
  }

  std::optional<Node> parse_escape() {
    ++pos_;  // The backslash.
    if (eof()) {
      fail("bad escape (end of pattern)");
      return std::nullopt;
    }
    Node n;
    const char c = p_[pos_];
    auto assertion = [&](AssertKind kind) {
      ++pos_;
      n.kind = Node::Kind::kAssert;
      n.assertion = kind;
      return n;
    };
    switch (c) {
      case 'b': return assertion(AssertKind::kWordBoundary);
      case 'B': return assertion(AssertKind::kNotWordBoundary);
      case 'A': return assertion(AssertKind::kTextStart);
      case 'Z': return assertion(AssertKind::kTextEnd);
      default: break;
    }
    CharClass cls;
    if (escape_set(cls)) {
      n.kind = Node::Kind::kClass;
      n.cls = std::move(cls);
      return n;
    }
    std::optional<char32_t> cp = escape_char();
    if (!cp) return std::nullopt;
    n.kind = Node::Kind::kChar;
    n.cp = *cp;
    n.icase = flags_.icase;
    return n;
  }

  // \d \w \s and their negations; pos_ is on the letter.
  bool escape_set(CharClass& cls) {
    const char c = peek();
    BuiltinSet set;
    switch (c) {
      case 'd': case 'D': set = BuiltinSet::kDigit; break;
      case 'w': case 'W': set = BuiltinSet::kWord; break;
      case 's': case 'S': set = BuiltinSet::kSpace; break;
      default: return false;
    }
    ++pos_;
    cls.sets.emplace_back(set, c >= 'A' && c <= 'Z');
    return true;
  }

  // A single-character escape; pos_ is on the character after the backslash.
  std::optional<char32_t> escape_char() {
    const char c = p_[pos_];
    auto hex = [&](int digits) -> std::optional<char32_t> {
      char32_t v = 0;
      for (int k = 1; k <= digits; ++k) {
        if (pos_ + k >= p_.size() || !std::isxdigit(static_cast<unsigned char>(p_[pos_ + k]))) {
          fail("bad hexadecimal escape");
          return std::nullopt;
        }
        const char h = p_[pos_ + k];
        v = v * 16 + static_cast<char32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      pos_ += digits + 1;
      return v;
    };
    switch (c) {
      case 'n': ++pos_; return U'\n';
      case 't': ++pos_; return U'\t';
      case 'r': ++pos_; return U'\r';
      case 'f': ++pos_; return U'\f';
      case 'v': ++pos_; return U'\v';
      case 'a': ++pos_; return U'\a';
      case '0': ++pos_; return U'\0';
      case 'x': return hex(2);
      case 'u': return hex(4);
      case 'U': return hex(8);
      default: break;
    }
    if (c >= '1' && c <= '9') {
      fail("backreferences are not supported");
      return std::nullopt;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      fail(std::string("bad escape \\") + c);
      return std::nullopt;
    }
    return next_char();
  }

  std::optional<Node> parse_class() {
    ++pos_;  // '['
    Node n;
    n.kind = Node::Kind::kClass;
    CharClass& cls = n.cls;
    cls.negated = accept('^');
    bool first = true;
    while (!eof() && (first || peek() != ']')) {
      first = false;
      std::optional<char32_t> lo = class_atom(cls);
      if (!error_.empty()) return std::nullopt;
      if (!lo) continue;  // A set such as \d was added.
      if (peek() == '-' && pos_ + 1 < p_.size() && p_[pos_ + 1] != ']') {
        ++pos_;
        std::optional<char32_t> hi = class_atom(cls);
        if (!hi || *hi < *lo) {
          fail("bad character range");
          return std::nullopt;
        }
        cls.ranges.emplace_back(*lo, *hi);
      } else {
        cls.ranges.emplace_back(*lo, *lo);
      }
    }
    if (!accept(']')) {
      fail("unterminated character set");
      return std::nullopt;
    }
    if (flags_.icase) add_case_variants(cls);
    return n;
  }

  // One member of a class: a character (returned) or a builtin set (added, nullopt).
  std::optional<char32_t> class_atom(CharClass& cls) {
    if (peek() != '\\') return next_char();
    ++pos_;
    if (eof()) {
      fail("bad escape (end of pattern)");
      return std::nullopt;
    }
    if (escape_set(cls)) return std::nullopt;
    if (peek() == 'b') {
      ++pos_;
      return U'\b';
    }
    return escape_char();
  }

  std::optional<Node> parse_group() {
    ++pos_;  // '('
    const Flags saved = flags_;
    Node n;
    n.kind = Node::Kind::kGroup;
    if (accept('?')) {
      if (!parse_group_kind(n)) return std::nullopt;
      if (n.kind == Node::Kind::kEmpty) return n;  // A bare flag group such as (?i).
    } else {
      n.group = ++groups_;
    }
    n.children.push_back(parse_alternation());
    flags_ = saved;
    if (!accept(')')) {
      fail("missing ), unterminated subpattern");
      return std::nullopt;
    }
    if (n.kind == Node::Kind::kLook && !n.look_ahead && !fixed_widths(n.children[0])) {
      fail("look-behind requires fixed-width pattern");
      return std::nullopt;
    }
    return n;
  }

  // After "(?": decides what kind of group this is.
  bool parse_group_kind(Node& n) {
    if (accept(':') || accept('>')) return true;
    if (accept('=') || accept('!')) {
      n.kind = Node::Kind::kLook;
      n.look_negated = p_[pos_ - 1] == '!';
      return true;
    }
    if (accept("<=") || accept("<!")) {
      n.kind = Node::Kind::kLook;
      n.look_ahead = false;
      n.look_negated = p_[pos_ - 1] == '!';
      return true;
    }
    if (accept("P<")) {
      const std::size_t end = p_.find('>', pos_);
      if (end == std::string_view::npos || end == pos_) {
        fail("bad group name");
        return false;
      }
      n.group = ++groups_;
      names_.emplace(std::string(p_.substr(pos_, end - pos_)), n.group);
      pos_ = end + 1;
      return true;
    }
    return parse_flag_group(n);
  }

  // (?ims) applies to the rest of the enclosing group; (?ims-ims:...) to its body.
  bool parse_flag_group(Node& n) {
    bool on = true;
    Flags flags = flags_;
    while (!eof() && peek() != ':' && peek() != ')') {
      const char c = p_[pos_++];
      if (c == '-') {
        on = false;
      } else if (c == 'i') {
        flags.icase = on;
      } else if (c == 'm') {
        flags.multiline = on;
      } else if (c == 's') {
        flags.dotall = on;
      } else if (c != 'x' && c != 'u' && c != 'a' && c != 'L') {
        fail(std::string("unknown extension ?") + c);
        return false;
      }
    }
    if (accept(')')) {
      flags_ = flags;
      n.kind = Node::Kind::kEmpty;
      return true;
    }
    if (!accept(':')) {
      fail("missing ), unterminated subpattern");
      return false;
    }
    flags_ = flags;
    return true;
  }

  static void add_case_variants(CharClass& cls) {
    std::vector<std::pair<char32_t, char32_t>> extra;
    for (auto [lo, hi] : cls.ranges) {
      auto fold = [&](char32_t a, char32_t z, int delta) {
        const char32_t b = std::max(lo, a);
        const char32_t e = std::min(hi, z);
        if (b <= e) extra.emplace_back(b + delta, e + delta);
      };
      fold(U'a', U'z', 'A' - 'a');
      fold(U'A', U'Z', 'a' - 'A');
    }
    cls.ranges.insert(cls.ranges.end(), extra.begin(), extra.end());
  }

  std::string_view p_;
  std::size_t pos_ = 0;
  Flags flags_;
  int groups_ = 0;
  std::map<std::string, int, std::less<>> names_;
  std::string error_;

 public:
  // The possible widths (in code points) of `n`, or nullopt when unbounded or too varied.
  static std::optional<std::set<int>> widths(const Node& n) {
    using K = Node::Kind;
    switch (n.kind) {
      case K::kChar: case K::kClass: case K::kAny: return std::set<int>{1};
      case K::kEmpty: case K::kAssert: case K::kLook: return std::set<int>{0};
      case K::kGroup: return widths(n.children[0]);
      case K::kConcat: {
        std::set<int> acc{0};
        for (const Node& c : n.children) {
          auto w = widths(c);
          if (!w) return std::nullopt;
          acc = sum(acc, *w);
          if (acc.size() > 32) return std::nullopt;
        }
        return acc;
      }
      case K::kAlt: {
        std::set<int> acc;
        for (const Node& c : n.children) {
          auto w = widths(c);
          if (!w) return std::nullopt;
          acc.insert(w->begin(), w->end());
        }
        return acc.size() > 32 ? std::nullopt : std::optional(acc);
      }
      case K::kRepeat: {
        auto w = widths(n.children[0]);
        if (!w || n.max < 0 || n.max > 64) return std::nullopt;
        std::set<int> acc;
        std::set<int> k_fold{0};
        for (int k = 0; k <= n.max; ++k) {
          if (k >= n.min) acc.insert(k_fold.begin(), k_fold.end());
          k_fold = sum(k_fold, *w);
          if (acc.size() > 32) return std::nullopt;
        }
        return acc;
      }
    }
    return std::nullopt;
  }

 private:
  static std::set<int> sum(const std::set<int>& a, const std::set<int>& b) {
    std::set<int> out;
    for (int x : a)
      for (int y : b) out.insert(x + y);
    return out;
  }
  static bool fixed_widths(const Node& n) { return widths(n).has_value(); }
};

class CodeGen {
 public:
  explicit CodeGen(RegexProgram& prog) : prog_(prog) {}

  bool emit(const Node& n) {
    if (prog_.insts.size() > kMaxInstructions) return false;
    using K = Node::Kind;
    switch (n.kind) {
      case K::kEmpty: return true;
      case K::kChar: return emit_char(n);
      case K::kClass: return add_class(n.cls);
      case K::kAny: return push({n.dotall ? Op::kAny : Op::kAnyNoNl});
      case K::kConcat:
        for (const Node& c : n.children) {
          if (!emit(c)) return false;
        }
        return true;
      case K::kAlt: return emit_alternation(n);
      case K::kRepeat: return emit_repeat(n);
      case K::kGroup: return emit_group(n);
      case K::kAssert: return push({Op::kAssert, static_cast<uint32_t>(n.assertion)});
      case K::kLook: return emit_look(n);
    }
    return false;
  }

  bool push(Inst inst) {
    prog_.insts.push_back(inst);
    return prog_.insts.size() <= kMaxInstructions;
  }
  uint32_t pc() const { return static_cast<uint32_t>(prog_.insts.size()); }

 private:
  bool emit_char(const Node& n) {
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

  bool emit_alternation(const Node& n) {
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

  bool emit_repeat(const Node& n) {
    const Node& body = n.children[0];
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

  bool emit_group(const Node& n) {
    if (n.group < 0) return emit(n.children[0]);
    const auto slot = static_cast<uint32_t>(2 * n.group);
    return push({Op::kSave, slot}) && emit(n.children[0]) && push({Op::kSave, slot + 1});
  }

  bool emit_look(const Node& n) {
    auto body = std::make_shared<RegexProgram>();
    CodeGen sub(*body);
    if (!sub.emit(n.children[0]) || !sub.push({Op::kMatch})) return false;
    LookAround look;
    look.ahead = n.look_ahead;
    look.negated = n.look_negated;
    if (!n.look_ahead) {
      auto widths = Parser::widths(n.children[0]);
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
std::vector<uint32_t> consuming_closure(const RegexProgram& prog, uint32_t from, bool& reaches_match) {
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
      case Op::kJmp: todo.push_back(inst.x); break;
      case Op::kSplit: todo.push_back(inst.x); todo.push_back(inst.y); break;
      case Op::kSave: case Op::kAssert: case Op::kLook: todo.push_back(pc + 1); break;
      case Op::kMatch: reaches_match = true; break;
      default: out.push_back(pc); break;
    }
  }
  return out;
}

std::array<bool, 128> ascii_members(const RegexProgram& prog, const Inst& inst) {
  std::array<bool, 128> members{};
  for (char32_t c = 0; c < 128; ++c) {
    switch (inst.op) {
      case Op::kChar: members[c] = c == inst.arg; break;
      case Op::kClass: members[c] = prog.classes[inst.arg].contains(c); break;
      case Op::kAny: members[c] = true; break;
      default: members[c] = c != U'\n'; break;
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
  Parser parser(pattern, Flags{options.ignore_case, options.multiline, options.dotall});
  Result<Node> root = parser.parse();
  if (!root.ok()) return root.status();
  auto prog = std::make_shared<RegexProgram>();
  prog->groups = parser.groups();
  prog->names = std::move(parser.names());
  CodeGen gen(*prog);
  if (!gen.push({Op::kSave, 0}) || !gen.emit(*root) || !gen.push({Op::kSave, 1}) ||
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
