// Regex parsing: Python-syntax pattern -> syntax tree.
#include <algorithm>
#include <cctype>

#include "safety/regex_syntax.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxRepeat = 4096;

std::set<int> sum_widths(const std::set<int>& a, const std::set<int>& b) {
  std::set<int> out;
  for (int x : a)
    for (int y : b) out.insert(x + y);
  return out;
}

struct Flags {
  bool icase = false;
  bool multiline = false;
  bool dotall = false;
};

class Parser {
 public:
  Parser(std::string_view pattern, Flags flags) : p_(pattern), flags_(flags) {}

  Result<RegexNode> parse() {
    RegexNode root = parse_alternation();
    if (!error_.empty()) return Status::invalid_argument(error_);
    if (pos_ < p_.size()) return fail_status("unbalanced parenthesis");
    return root;
  }
  int groups() const { return groups_; }
  std::map<std::string, int, std::less<>>& names() { return names_; }

 private:
  Status fail_status(const std::string& what) const {
    return Status::invalid_argument("regex error at position " + std::to_string(pos_) + ": " +
                                    what);
  }
  void fail(const std::string& what) {
    if (error_.empty()) error_ = fail_status(what).message();
    pos_ = p_.size();
  }
  bool eof() const { return pos_ >= p_.size(); }
  // Whether `extra` more levels below the groups open now stay within kRegexMaxNesting.
  bool enter_level(int extra) {
    if (depth_ + extra <= kRegexMaxNesting) return true;
    fail("too deeply nested (more than " + std::to_string(kRegexMaxNesting) +
         " levels of groups and quantifiers)");
    return false;
  }
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

  RegexNode parse_alternation() {
    RegexNode first = parse_concat();
    if (peek() != '|') return first;
    RegexNode alt;
    alt.kind = RegexNode::Kind::kAlt;
    alt.children.push_back(std::move(first));
    while (!eof() && accept('|')) alt.children.push_back(parse_concat());
    return alt;
  }

  RegexNode parse_concat() {
    RegexNode seq;
    seq.kind = RegexNode::Kind::kConcat;
    while (!eof() && peek() != '|' && peek() != ')') {
      if (auto atom = parse_repeat()) seq.children.push_back(std::move(*atom));
    }
    if (seq.children.size() == 1) return std::move(seq.children[0]);
    return seq;
  }

  std::optional<RegexNode> parse_repeat() {
    std::optional<RegexNode> atom = parse_atom();
    if (!atom) return atom;
    // Each quantifier on a quantified atom (a{2}{3}) wraps it once more: a level too.
    int stacked = 0;
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
      if (atom->kind == RegexNode::Kind::kAssert || atom->kind == RegexNode::Kind::kEmpty) {
        pos_ = save;
        fail("nothing to repeat");
        return std::nullopt;
      }
      if (max != -1 && (min > max || max > kMaxRepeat)) {
        fail("bad repetition count");
        return std::nullopt;
      }
      if (!enter_level(++stacked)) return std::nullopt;
      RegexNode rep;
      rep.kind = RegexNode::Kind::kRepeat;
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

  std::optional<RegexNode> parse_atom() {
    const char c = peek();
    if (c == '(') return parse_group();
    if (c == '[') return parse_class();
    RegexNode n;
    if (accept('.')) {
      n.kind = RegexNode::Kind::kAny;
      n.dotall = flags_.dotall;
      return n;
    }
    if (accept('^')) {
      n.kind = RegexNode::Kind::kAssert;
      n.assertion = flags_.multiline ? AssertKind::kLineStart : AssertKind::kTextStart;
      return n;
    }
    if (accept('$')) {
      n.kind = RegexNode::Kind::kAssert;
      n.assertion = flags_.multiline ? AssertKind::kLineEnd : AssertKind::kTextEndOrFinalNl;
      return n;
    }
    if (c == '*' || c == '+' || c == '?') {
      fail("nothing to repeat");
      return std::nullopt;
    }
    if (c == '\\') return parse_escape();
    n.kind = RegexNode::Kind::kChar;
    n.cp = next_char();
    n.icase = flags_.icase;
    return n;
  }

  std::optional<RegexNode> parse_escape() {
    ++pos_;  // The backslash.
    if (eof()) {
      fail("bad escape (end of pattern)");
      return std::nullopt;
    }
    RegexNode n;
    const char c = p_[pos_];
    auto assertion = [&](AssertKind kind) {
      ++pos_;
      n.kind = RegexNode::Kind::kAssert;
      n.assertion = kind;
      return n;
    };
    switch (c) {
      case 'b':
        return assertion(AssertKind::kWordBoundary);
      case 'B':
        return assertion(AssertKind::kNotWordBoundary);
      case 'A':
        return assertion(AssertKind::kTextStart);
      case 'Z':
        return assertion(AssertKind::kTextEnd);
      default:
        break;
    }
    CharClass cls;
    if (escape_set(cls)) {
      n.kind = RegexNode::Kind::kClass;
      n.cls = std::move(cls);
      return n;
    }
    std::optional<char32_t> cp = escape_char();
    if (!cp) return std::nullopt;
    n.kind = RegexNode::Kind::kChar;
    n.cp = *cp;
    n.icase = flags_.icase;
    return n;
  }

  // \d \w \s and their negations; pos_ is on the letter.
  bool escape_set(CharClass& cls) {
    const char c = peek();
    BuiltinSet set;
    switch (c) {
      case 'd':
      case 'D':
        set = BuiltinSet::kDigit;
        break;
      case 'w':
      case 'W':
        set = BuiltinSet::kWord;
        break;
      case 's':
      case 'S':
        set = BuiltinSet::kSpace;
        break;
      default:
        return false;
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
      case 'n':
        ++pos_;
        return U'\n';
      case 't':
        ++pos_;
        return U'\t';
      case 'r':
        ++pos_;
        return U'\r';
      case 'f':
        ++pos_;
        return U'\f';
      case 'v':
        ++pos_;
        return U'\v';
      case 'a':
        ++pos_;
        return U'\a';
      case '0':
        ++pos_;
        return U'\0';
      case 'x':
        return hex(2);
      case 'u':
        return hex(4);
      case 'U':
        return hex(8);
      default:
        break;
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

  std::optional<RegexNode> parse_class() {
    ++pos_;  // '['
    RegexNode n;
    n.kind = RegexNode::Kind::kClass;
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

  std::optional<RegexNode> parse_group() {
    if (!enter_level(1)) return std::nullopt;
    ++depth_;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    ++pos_;  // '('
    const Flags saved = flags_;
    RegexNode n;
    n.kind = RegexNode::Kind::kGroup;
    if (accept('?')) {
      if (!parse_group_kind(n)) return std::nullopt;
      if (n.kind == RegexNode::Kind::kEmpty) return n;  // A bare flag group such as (?i).
    } else {
      n.group = ++groups_;
    }
    n.children.push_back(parse_alternation());
    flags_ = saved;
    if (!accept(')')) {
      fail("missing ), unterminated subpattern");
      return std::nullopt;
    }
    if (n.kind == RegexNode::Kind::kLook && !n.look_ahead && !fixed_widths(n.children[0])) {
      fail("look-behind requires fixed-width pattern");
      return std::nullopt;
    }
    return n;
  }

  // After "(?": decides what kind of group this is.
  bool parse_group_kind(RegexNode& n) {
    if (accept(':') || accept('>')) return true;
    if (accept('=') || accept('!')) {
      n.kind = RegexNode::Kind::kLook;
      n.look_negated = p_[pos_ - 1] == '!';
      return true;
    }
    if (accept("<=") || accept("<!")) {
      n.kind = RegexNode::Kind::kLook;
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
  bool parse_flag_group(RegexNode& n) {
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
      n.kind = RegexNode::Kind::kEmpty;
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
    for (const auto& range : cls.ranges) {
      // Named copies: clang before 16 cannot capture structured bindings in a lambda.
      const char32_t lo = range.first;
      const char32_t hi = range.second;
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
  int depth_ = 0;  // Groups open at pos_.
  std::map<std::string, int, std::less<>> names_;
  std::string error_;

  static bool fixed_widths(const RegexNode& n) { return regex_widths(n).has_value(); }
};

}  // namespace

std::optional<std::set<int>> regex_widths(const RegexNode& n) {
  using K = RegexNode::Kind;
  switch (n.kind) {
    case K::kChar:
    case K::kClass:
    case K::kAny:
      return std::set<int>{1};
    case K::kEmpty:
    case K::kAssert:
    case K::kLook:
      return std::set<int>{0};
    case K::kGroup:
      return regex_widths(n.children[0]);
    case K::kConcat: {
      std::set<int> acc{0};
      for (const RegexNode& c : n.children) {
        auto w = regex_widths(c);
        if (!w) return std::nullopt;
        acc = sum_widths(acc, *w);
        if (acc.size() > 32) return std::nullopt;
      }
      return acc;
    }
    case K::kAlt: {
      std::set<int> acc;
      for (const RegexNode& c : n.children) {
        auto w = regex_widths(c);
        if (!w) return std::nullopt;
        acc.insert(w->begin(), w->end());
      }
      return acc.size() > 32 ? std::nullopt : std::optional(acc);
    }
    case K::kRepeat: {
      auto w = regex_widths(n.children[0]);
      if (!w || n.max < 0 || n.max > 64) return std::nullopt;
      std::set<int> acc;
      std::set<int> k_fold{0};
      for (int k = 0; k <= n.max; ++k) {
        if (k >= n.min) acc.insert(k_fold.begin(), k_fold.end());
        k_fold = sum_widths(k_fold, *w);
        if (acc.size() > 32) return std::nullopt;
      }
      return acc;
    }
  }
  return std::nullopt;
}

std::optional<int> regex_max_width(const RegexNode& n) {
  constexpr long long kUnbounded = 1 << 20;
  using K = RegexNode::Kind;
  switch (n.kind) {
    case K::kChar:
    case K::kClass:
    case K::kAny:
      return 1;
    case K::kEmpty:
    case K::kAssert:
    case K::kLook:
      return 0;
    case K::kGroup:
      return regex_max_width(n.children[0]);
    case K::kConcat:
    case K::kAlt: {
      long long acc = 0;
      for (const RegexNode& c : n.children) {
        const std::optional<int> w = regex_max_width(c);
        if (!w) return std::nullopt;
        acc = n.kind == K::kConcat ? acc + *w : std::max<long long>(acc, *w);
        if (acc > kUnbounded) return std::nullopt;
      }
      return static_cast<int>(acc);
    }
    case K::kRepeat: {
      const std::optional<int> w = regex_max_width(n.children[0]);
      if (!w || n.max < 0) return std::nullopt;
      const long long total = static_cast<long long>(*w) * n.max;
      if (total > kUnbounded) return std::nullopt;
      return static_cast<int>(total);
    }
  }
  return std::nullopt;
}

Result<ParsedRegex> parse_regex(std::string_view pattern, RegexOptions options) {
  Parser parser(pattern, Flags{options.ignore_case, options.multiline, options.dotall});
  Result<RegexNode> root = parser.parse();
  if (!root.ok()) return root.status();
  return ParsedRegex{std::move(*root), parser.groups(), std::move(parser.names())};
}

}  // namespace hermes::internal
