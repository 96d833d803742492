#include "safety/shell_commands.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "common/text_utils.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxSubstitutionDepth = 8;
constexpr std::size_t kUnclosed = std::string_view::npos;

bool sc_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

bool sc_metachar(char c) {
  return std::string_view(";&|()<>\n").find(c) != std::string_view::npos;
}

// s[i] is a backtick: the offset just past its partner, or kUnclosed.
std::size_t sc_backtick_end(std::string_view s, std::size_t i) {
  for (std::size_t k = i + 1; k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;
    } else if (s[k] == '`') {
      return k + 1;
    }
  }
  return kUnclosed;
}

// s[i] is the quote of $'...': the offset just past the closing quote, or kUnclosed.
std::size_t sc_ansi_c_end(std::string_view s, std::size_t i) {
  for (std::size_t k = i + 1; k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;
    } else if (s[k] == '\'') {
      return k + 1;
    }
  }
  return kUnclosed;
}

// The text between an opener of `open_len` characters at `i` and the closer that ends at
// `end` (kUnclosed: the rest of `s`).
std::string_view sc_inner(std::string_view s, std::size_t i, std::size_t open_len,
                          std::size_t end) {
  const std::size_t begin = std::min(i + open_len, s.size());
  const std::size_t stop = end == kUnclosed ? s.size() : end - 1;
  return stop > begin ? s.substr(begin, stop - begin) : std::string_view();
}

// Finds where quotes and substitutions end, recording the code of the substitutions it
// passes (when given a list). Nesting is bounded: past kMaxNesting the rest of the text is
// taken as unclosed and `too_deep` is set, so hostile input can exhaust neither the
// stack nor the time budget.
class ShellScanner {
 public:
  static constexpr int kMaxNesting = 32;
  bool too_deep = false;

  // s[i] is a double quote: the offset just past its partner, or kUnclosed. Substitutions
  // inside still run, so they are recorded.
  std::size_t double_quote_end(std::string_view s, std::size_t i,
                               std::vector<std::string_view>* subs) {
    Nest nest(*this);
    if (!nest.ok) return kUnclosed;
    for (std::size_t k = i + 1; k < s.size();) {
      const char c = s[k];
      if (c == '\\') {
        k += 2;
      } else if (c == '"') {
        return k + 1;
      } else if (const std::size_t e = (c == '$' || c == '`') ? substitution(s, k, subs) : 0;
                 e != 0) {
        if (e >= s.size()) return kUnclosed;
        k = e;
      } else {
        ++k;
      }
    }
    return kUnclosed;
  }

  // A substitution starting at s[i] ($(, `, ${, <(, >(): records the code it runs in
  // `subs` and returns the offset just past it (s.size() when unclosed); 0 when none
  // starts there.
  std::size_t substitution(std::string_view s, std::size_t i, std::vector<std::string_view>* subs) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    std::size_t end = 0;
    std::string_view code;
    bool nested_only = false;  // ${...} and $((...)) are not code, but may hold some.
    if (c == '`') {
      end = sc_backtick_end(s, i);
      code = sc_inner(s, i, 1, end);
    } else if ((c == '$' || c == '<' || c == '>') && next == '(') {
      end = bracket_end(s, i + 1, '(', ')');
      code = sc_inner(s, i, 2, end);
      nested_only = c == '$' && i + 2 < s.size() && s[i + 2] == '(';
    } else if (c == '$' && next == '{') {
      end = bracket_end(s, i + 1, '{', '}');
      code = sc_inner(s, i, 2, end);
      nested_only = true;
    } else {
      return 0;
    }
    if (subs != nullptr) {
      if (nested_only) {
        collect_substitutions(code, subs);
      } else {
        subs->push_back(code);
      }
    }
    return end == kUnclosed ? s.size() : end;
  }

  // The end of the shell word starting at s[i]; its substitutions go to `subs`.
  std::size_t word_end(std::string_view s, std::size_t i, std::vector<std::string_view>& subs) {
    std::size_t k = i;
    while (k < s.size()) {
      const char c = s[k];
      const char next = k + 1 < s.size() ? s[k + 1] : '\0';
      if (c == '\\') {
        k += 2;
        continue;
      }
      std::size_t skip_to = 0;
      if (c == '\'') {
        const std::size_t e = s.find('\'', k + 1);
        skip_to = e == std::string_view::npos ? kUnclosed : e + 1;
      } else if (c == '$' && next == '\'') {
        skip_to = sc_ansi_c_end(s, k + 1);
      } else if (c == '"') {
        skip_to = double_quote_end(s, k, &subs);
      } else if (c == '`' || (c == '$' && (next == '(' || next == '{')) ||
                 ((c == '<' || c == '>') && next == '(')) {
        skip_to = substitution(s, k, &subs);
      } else if (sc_blank(c) || sc_metachar(c)) {
        break;
      } else {
        ++k;
        continue;
      }
      if (skip_to == kUnclosed) return s.size();
      k = skip_to;
    }
    return std::min(k, s.size());
  }

 private:
  struct Nest {
    explicit Nest(ShellScanner& s) : scanner(s), ok(++s.nesting_ <= kMaxNesting) {
      if (!ok) scanner.too_deep = true;
    }
    ~Nest() { --scanner.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    ShellScanner& scanner;
    bool ok;
  };

  // s[i] is `open`: the offset just past the matching `close`, or kUnclosed. Quotes,
  // escapes and backticks inside are skipped.
  std::size_t bracket_end(std::string_view s, std::size_t i, char open, char close) {
    Nest nest(*this);
    if (!nest.ok) return kUnclosed;
    int depth = 0;
    for (std::size_t k = i; k < s.size(); ++k) {
      const char c = s[k];
      std::size_t skip_to = 0;
      if (c == '\\') {
        ++k;
        continue;
      }
      if (c == '$' && k + 1 < s.size() && s[k + 1] == '\'') {
        skip_to = sc_ansi_c_end(s, k + 1);
      } else if (c == '\'') {
        const std::size_t e = s.find('\'', k + 1);
        skip_to = e == std::string_view::npos ? kUnclosed : e + 1;
      } else if (c == '"') {
        skip_to = double_quote_end(s, k, nullptr);
      } else if (c == '`') {
        skip_to = sc_backtick_end(s, k);
      } else if (c == open) {
        ++depth;
        continue;
      } else if (c == close && --depth == 0) {
        return k + 1;
      } else {
        continue;
      }
      if (skip_to == kUnclosed) return kUnclosed;
      k = skip_to - 1;
    }
    return kUnclosed;
  }

  // Records the substitutions inside `s` (the body of ${...} or $((...))).
  void collect_substitutions(std::string_view s, std::vector<std::string_view>* subs) {
    Nest nest(*this);
    if (!nest.ok) return;
    for (std::size_t k = 0; k < s.size();) {
      if (s[k] == '\\') {
        k += 2;
      } else if (s[k] == '\'') {
        const std::size_t e = s.find('\'', k + 1);
        k = e == std::string_view::npos ? s.size() : e + 1;
      } else if (s[k] == '"') {
        const std::size_t e = double_quote_end(s, k, subs);
        k = e == kUnclosed ? s.size() : e;
      } else if (const std::size_t e = substitution(s, k, subs); e != 0) {
        k = e;
      } else {
        ++k;
      }
    }
  }

  int nesting_ = 0;
};

// Skips the bodies of the heredocs opened on the line that ended just before `i`.
std::size_t sc_skip_heredoc_bodies(std::string_view s, std::size_t i,
                                   std::vector<std::pair<std::string, bool>>& heredocs) {
  for (const auto& [delimiter, strip_tabs] : heredocs) {
    while (i < s.size()) {
      std::size_t nl = s.find('\n', i);
      if (nl == std::string_view::npos) nl = s.size();
      std::string_view line = s.substr(i, nl - i);
      if (strip_tabs) {
        while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
      }
      i = std::min(nl + 1, s.size());
      if (line == delimiter) break;
    }
  }
  heredocs.clear();
  return i;
}

// The redirection operator starting at s[i] (after any file descriptor number).
std::string sc_redirect_operator(std::string_view s, std::size_t& i) {
  std::string op;
  if (s[i] == '&') op += s[i++];
  const char first = s[i++];
  op += first;
  auto take = [&](std::string_view chars) {
    if (i < s.size() && chars.find(s[i]) != std::string_view::npos) op += s[i++];
  };
  if (op == "&>") {
    take(">");
  } else if (first == '<') {
    if (i < s.size() && s[i] == '<') {
      op += s[i++];
      take("<-");
    } else {
      take(">&");
    }
  } else {
    take(">|&");
  }
  return op;
}

class ShellParser {
 public:
  explicit ShellParser(ParsedShell& out) : out_(out) {}

  void parse(std::string_view s, int depth, std::size_t parent) {
    if (depth > kMaxSubstitutionDepth) {
      out_.too_deep = true;
      return;
    }
    depth_ = depth;
    parent_ = parent;
    subs_.clear();
    owners_.clear();
    heredocs_.clear();
    pipeline_ = next_pipeline_++;
    stage_ = 0;
    std::size_t i = 0;
    while (i < s.size()) i = step(s, i);
    finish();
    if (scanner_.too_deep) out_.too_deep = true;
    // Parsed after this level: the recursion reuses the members.
    const std::vector<std::string_view> subs = subs_;
    const std::vector<std::size_t> owners = owners_;
    for (std::size_t k = 0; k < subs.size(); ++k) parse(subs[k], depth + 1, owners[k]);
  }

 private:
  std::size_t step(std::string_view s, std::size_t i) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    if (sc_blank(c)) return i + 1;
    if (c == '\\' && next == '\n') return i + 2;
    if (c == '\n') {
      new_pipeline();
      return sc_skip_heredoc_bodies(s, i + 1, heredocs_);
    }
    if (c == '#') {  // At a word boundary: a comment.
      const std::size_t nl = s.find('\n', i);
      return nl == std::string_view::npos ? s.size() : nl;
    }
    if (c == ';' || c == '(' || c == ')') {
      new_pipeline();
      return i + 1;
    }
    if (c == '&' && next != '>') {
      new_pipeline();
      return i + (next == '&' ? 2 : 1);
    }
    if (c == '|') {
      if (next == '|') {
        new_pipeline();
        return i + 2;
      }
      finish();
      ++stage_;
      return i + (next == '&' ? 2 : 1);
    }
    std::size_t j = i;
    while (j < s.size() && is_ascii_digit(s[j])) ++j;
    if (c == '&') j = i;
    const bool redirect = j < s.size() && (s[j] == '<' || s[j] == '>' || (s[j] == '&' && j == i)) &&
                          !(j + 1 < s.size() && s[j + 1] == '(');
    if (redirect) return read_redirect(s, j);
    const std::size_t end = scanner_.word_end(s, i, subs_);
    own_new_substitutions();
    if (end <= i) return i + 1;
    const std::string_view raw = s.substr(i, end - i);
    current_.raw.emplace_back(raw);
    current_.words.push_back(unquote_shell_word(raw));
    return end;
  }

  std::size_t read_redirect(std::string_view s, std::size_t i) {
    ShellRedirect r;
    r.op = sc_redirect_operator(s, i);
    while (i < s.size() && sc_blank(s[i])) ++i;
    const std::size_t end = scanner_.word_end(s, i, subs_);
    own_new_substitutions();
    r.target = unquote_shell_word(s.substr(i, end - i));
    if (r.op == "<<" || r.op == "<<-") heredocs_.emplace_back(r.target, r.op == "<<-");
    current_.redirects.push_back(std::move(r));
    return std::max(end, i);
  }

  // The substitutions just read belong to the command being read.
  void own_new_substitutions() { owners_.resize(subs_.size(), out_.commands.size()); }

  void finish() {
    if (!current_.raw.empty() || !current_.redirects.empty()) {
      current_.parent = parent_;
      current_.pipeline = pipeline_;
      current_.stage = stage_;
      current_.depth = depth_;
      out_.commands.push_back(std::move(current_));
    }
    current_ = SimpleCommand{};
  }

  void new_pipeline() {
    finish();
    pipeline_ = next_pipeline_++;
    stage_ = 0;
  }

  ParsedShell& out_;
  ShellScanner scanner_;
  SimpleCommand current_;
  std::vector<std::string_view> subs_;
  std::vector<std::size_t> owners_;  // For each of subs_, the index of its command.
  std::vector<std::pair<std::string, bool>> heredocs_;
  std::size_t next_pipeline_ = 0;
  std::size_t pipeline_ = 0;
  std::size_t stage_ = 0;
  int depth_ = 0;
  std::size_t parent_ = SimpleCommand::kNoParent;
};

bool is_reserved_word(std::string_view w) {
  static constexpr std::array<std::string_view, 14> kReserved = {
      "if", "then", "else", "elif", "do",   "while", "until",
      "!",  "{",    "}",    "fi",   "done", "esac",  "time"};
  return std::find(kReserved.begin(), kReserved.end(), w) != kReserved.end();
}

bool is_assignment(std::string_view w) {
  const std::size_t eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  std::string_view name = w.substr(0, eq);
  if (name.back() == '+') name.remove_suffix(1);  // x+=1
  if (name.empty() || is_ascii_digit(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return is_ascii_digit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
}

bool starts_expansion(char c) {
  return c == '{' || c == '(' || c == '_' || is_ascii_digit(c) || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || std::string_view("@*#?$!-").find(c) != std::string_view::npos;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_decoded(std::string& out, unsigned long cp) {
  if (cp == 0) return;  // bash ends the string at a NUL; nothing is added.
  if (cp < 0x20 || cp == 0x7F) {
    out += ' ';
  } else if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else {
    out += '?';
  }
}

}  // namespace

bool ShellRedirect::writes() const {
  if (op == ">&" || op == "<&") {
    // >&2 duplicates a descriptor; >&file writes the file.
    return op == ">&" && !target.empty() && target != "-" &&
           !std::all_of(target.begin(), target.end(), [](char c) { return is_ascii_digit(c); });
  }
  return op == ">" || op == ">>" || op == ">|" || op == "<>" || op == "&>" || op == "&>>";
}

ParsedShell parse_shell_commands(std::string_view text) {
  ParsedShell out;
  ShellParser(out).parse(text, 0, SimpleCommand::kNoParent);
  return out;
}

std::size_t command_first_word_index(const SimpleCommand& cmd) {
  std::size_t i = 0;
  while (i < cmd.words.size() && (is_reserved_word(cmd.words[i]) || is_assignment(cmd.words[i]))) {
    // A quoted word is never reserved: `"if"` runs a program called if.
    if (cmd.raw[i] != cmd.words[i] && !is_assignment(cmd.words[i])) break;
    ++i;
    if (i < cmd.words.size() && cmd.words[i - 1] == "time" && cmd.words[i] == "-p") ++i;
  }
  return i;
}

std::optional<std::size_t> command_program_index(const SimpleCommand& cmd) {
  const std::size_t first = command_first_word_index(cmd);
  if (first >= cmd.words.size()) return std::nullopt;
  static constexpr std::array<std::string_view, 7> kCompound = {
      "for", "case", "select", "function", "coproc", "[[", "(("};
  const std::string& w = cmd.words[first];
  if (cmd.raw[first] == w && std::find(kCompound.begin(), kCompound.end(), w) != kCompound.end())
    return std::nullopt;
  const std::vector<std::string> rest(cmd.words.begin() + static_cast<std::ptrdiff_t>(first),
                                      cmd.words.end());
  auto index = shell_program_index(rest);
  if (!index) return std::nullopt;
  return first + *index;
}

bool raw_word_expands(std::string_view raw) {
  bool in_double = false;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const char c = raw[k];
    const char next = k + 1 < raw.size() ? raw[k + 1] : '\0';
    if (c == '\\') {
      ++k;
    } else if (c == '"') {
      in_double = !in_double;
    } else if (c == '\'' && !in_double) {
      const std::size_t e = raw.find('\'', k + 1);
      if (e == std::string_view::npos) return false;
      k = e;
    } else if (c == '`') {
      return true;
    } else if (c == '$' && next == '\'' && !in_double) {
      const std::size_t e = sc_ansi_c_end(raw, k + 1);
      if (e == kUnclosed) return false;
      k = e - 1;
    } else if (c == '$' && starts_expansion(next)) {
      return true;
    }
  }
  return false;
}

std::string decode_ansi_c_body(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (std::size_t k = 0; k < body.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(body[k]);
    if (c != '\\' || k + 1 >= body.size()) {
      if (c < 0x20 || c == 0x7F) {
        out += ' ';
      } else {
        out += static_cast<char>(c);
      }
      continue;
    }
    const char e = body[++k];
    auto read_number = [&](int base, std::size_t max_digits) {
      unsigned long value = 0;
      std::size_t digits = 0;
      while (digits < max_digits && k + 1 < body.size()) {
        const int d = hex_value(body[k + 1]);
        if (d < 0 || d >= base) break;
        value = value * static_cast<unsigned long>(base) + static_cast<unsigned long>(d);
        ++k;
        ++digits;
      }
      return std::make_pair(value, digits);
    };
    if (std::string_view("abeEfnrtv").find(e) != std::string_view::npos) {
      out += ' ';
    } else if (e == '\\' || e == '\'' || e == '"' || e == '?') {
      out += e;
    } else if (e >= '0' && e <= '7') {
      --k;  // The first digit is part of the number.
      append_decoded(out, read_number(8, 3).first & 0xFF);
    } else if (e == 'x' || e == 'u' || e == 'U') {
      const auto [value, digits] = read_number(16, e == 'x' ? 2 : (e == 'u' ? 4 : 8));
      if (digits == 0) {
        out += '\\';
        out += e;
      } else {
        append_decoded(out, value);
      }
    } else if (e == 'c' && k + 1 < body.size()) {
      // \cX is a control character; a non-ASCII X stays text, so no UTF-8 is cut.
      if (static_cast<unsigned char>(body[k + 1]) < 0x80) ++k;
      out += ' ';
    } else {
      out += '\\';
      out += e;
    }
  }
  return out;
}

std::string unquote_shell_word(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const char c = raw[k];
    const char next = k + 1 < raw.size() ? raw[k + 1] : '\0';
    if (c == '\\') {
      if (k + 1 < raw.size() && next != '\n') out += next;
      ++k;
    } else if (c == '\'') {
      const std::size_t e = raw.find('\'', k + 1);
      const std::size_t stop = e == std::string_view::npos ? raw.size() : e;
      out.append(raw.substr(k + 1, stop - k - 1));
      k = stop;
    } else if (c == '$' && next == '\'') {
      const std::size_t e = sc_ansi_c_end(raw, k + 1);
      const std::size_t stop = e == kUnclosed ? raw.size() : e - 1;
      out += decode_ansi_c_body(raw.substr(k + 2, stop > k + 2 ? stop - k - 2 : 0));
      k = e == kUnclosed ? raw.size() : e - 1;
    } else if (c == '"') {
      for (++k; k < raw.size() && raw[k] != '"'; ++k) {
        if (raw[k] == '\\' && k + 1 < raw.size()) {
          const char escaped = raw[k + 1];
          if (std::string_view("$`\"\\").find(escaped) == std::string_view::npos) out += '\\';
          if (escaped != '\n') out += escaped;
          ++k;
        } else {
          out += raw[k];
        }
      }
    } else {
      out += c;
    }
  }
  return out;
}

std::string join_shell_words(const std::vector<std::string>& words, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && std::none_of(w.begin(), w.end(), [](char c) {
      return sc_blank(c) || sc_metachar(c) || c == '\'' || c == '"' || c == '\\' || c == '`';
    });
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) {
      if (c == '\'') {
        out += "'\"'\"'";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

std::string join_words_plain(const std::vector<std::string>& words, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < words.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

}  // namespace hermes::internal
