#include "safety/shell_lexer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

bool is_blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool is_comment_start(std::string_view s, std::size_t i) {
  if (s[i] != '#') return false;
  if (i == 0) return true;
  const char p = s[i - 1];
  return is_blank(p) || std::string_view(";&|()<>").find(p) != std::string_view::npos;
}

// The offset just past the `)` closing the $( that starts at `i`, or npos.
std::size_t dollar_paren_end(std::string_view s, std::size_t i) {
  int depth = 1;
  char quote = 0;
  for (std::size_t k = i + 2; k < s.size(); ++k) {
    const char c = s[k];
    if (quote != '\'' && c == '\\') {
      ++k;
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' && k > 0 && s[k - 1] == '$') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return k + 1;
    }
  }
  return std::string_view::npos;
}

// The offset just past the backtick closing the one at `i`, or npos.
std::size_t backtick_end(std::string_view s, std::size_t i) {
  for (std::size_t k = i + 1; k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;
    } else if (s[k] == '`') {
      return k + 1;
    }
  }
  return std::string_view::npos;
}

std::size_t substitution_end(std::string_view s, std::size_t i) {
  return s[i] == '`' ? backtick_end(s, i) : dollar_paren_end(s, i);
}

bool opens_substitution(std::string_view s, std::size_t i) {
  return s[i] == '`' || (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '(');
}

std::size_t skip_blanks(std::string_view s, std::size_t i) {
  while (i < s.size() && is_blank(s[i])) ++i;
  return i;
}

// One shell word starting at `i` (after blanks): [start, end).
std::pair<std::size_t, std::size_t> read_word(std::string_view s, std::size_t i) {
  const std::size_t start = skip_blanks(s, i);
  char quote = 0;
  std::size_t k = start;
  while (k < s.size()) {
    const char c = s[k];
    if (quote != '\'' && c == '\\' && k + 1 < s.size()) {
      k += 2;
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      ++k;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (opens_substitution(s, k)) {
      const std::size_t end = substitution_end(s, k);
      if (end != std::string_view::npos) {
        k = end;
        continue;
      }
    } else if (is_blank(c) || std::string_view(";&|<>()").find(c) != std::string_view::npos) {
      break;
    }
    ++k;
  }
  return {start, k};
}

// Collects raw start offsets in [begin, end) into `starts`.
void scan_starts(std::string_view s, std::size_t begin, std::size_t end,
                 std::vector<std::size_t>& starts) {
  char quote = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const char c = s[i];
    if (quote != '\'' && c == '\\') {
      ++i;
      continue;
    }
    if (!quote && is_comment_start(s, i)) {
      while (i < end && s[i] != '\n') ++i;
      --i;
      continue;
    }
    if ((c == '\'' && quote != '"') || (c == '"' && quote != '\'')) {
      quote = quote ? 0 : c;
      continue;
    }
    if (quote != '\'' && opens_substitution(s, i)) {
      const std::size_t inner = i + (c == '`' ? 1 : 2);
      const std::size_t close = substitution_end(s, i);
      starts.push_back(inner);
      if (close == std::string_view::npos) {
        scan_starts(s, inner, end, starts);
        return;
      }
      scan_starts(s, inner, close - 1, starts);
      i = close - 1;
      continue;
    }
    if (quote) continue;
    if (c == '(' || c == ';' || c == '\n') {
      starts.push_back(i + 1);
    } else if (c == '{' && (i == 0 || is_blank(s[i - 1]) ||
                            std::string_view("(;&|)").find(s[i - 1]) != std::string_view::npos)) {
      starts.push_back(i + 1);
    } else if (c == '&' || c == '|') {
      const bool repeated = i + 1 < end && s[i + 1] == c;
      starts.push_back(i + 1 + (repeated ? 1 : 0));
      if (repeated) ++i;
    }
  }
}

const std::set<std::string_view>& transition_words() {
  static const std::set<std::string_view> words = {"if", "then",  "else",  "elif",
                                                   "do", "while", "until", "!"};
  return words;
}

}  // namespace

std::vector<std::size_t> shell_command_starts(std::string_view s) {
  std::vector<std::size_t> raw{0};
  scan_starts(s, 0, s.size(), raw);
  std::vector<std::size_t> out;
  std::set<std::size_t> seen;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const std::size_t start = skip_blanks(s, raw[k]);
    if (start >= s.size() || seen.count(start) || is_comment_start(s, start)) continue;
    seen.insert(start);
    out.push_back(start);
    const auto [b, e] = read_word(s, start);
    if (transition_words().count(s.substr(b, e - b))) raw.push_back(e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string mark_shell_command_starts(std::string_view s, std::string_view marker) {
  std::string out;
  std::size_t prev = 0;
  for (std::size_t start : shell_command_starts(s)) {
    if (start == 0) continue;
    out.append(s.substr(prev, start - prev));
    out.append(marker);
    prev = start;
  }
  out.append(s.substr(prev));
  return out;
}

std::string unquote_command_words(std::string_view s) {
  std::string out;
  std::size_t prev = 0;
  for (std::size_t start : shell_command_starts(s)) {
    if (start < prev) continue;  // Nested in a word already rewritten.
    const auto [b, e] = read_word(s, start);
    const std::string_view word = s.substr(b, e - b);
    if (word.find_first_of("'\"\\") == std::string_view::npos) continue;
    auto words = shell_words(word);
    if (!words || words->size() != 1) continue;
    out.append(s.substr(prev, b - prev));
    out.append((*words)[0]);
    prev = e;
  }
  out.append(s.substr(prev));
  return out;
}

std::vector<std::string> command_position_words(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t start : shell_command_starts(s)) {
    const auto [b, e] = read_word(s, start);
    auto words = shell_words(s.substr(b, e - b));
    if (words && words->size() == 1) out.push_back(program_basename((*words)[0]));
  }
  return out;
}

std::string mask_quoted_prose(std::string_view s) {
  std::string out(s);
  char quote = 0;
  char last = 0;  // The last significant unquoted character.
  bool keep = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!quote) {
      if (c == '\\' && i + 1 < s.size()) {
        last = '\\';  // An escaped `>` is an argument, not a redirection.
        ++i;
      } else if (c == '\'' || c == '"') {
        keep = last == '>';
        quote = c;
        last = c;
      } else if (!is_blank(c)) {
        last = c;
      }
      continue;
    }
    if (c == quote) {
      quote = 0;
      last = c;
      continue;
    }
    if (quote == '"' && c == '\\' && i + 1 < s.size()) {
      if (!keep) out[i] = out[i + 1] = ' ';
      ++i;
      continue;
    }
    if (quote == '"' && opens_substitution(s, i)) {
      const std::size_t end = substitution_end(s, i);
      if (end != std::string_view::npos) {
        i = end - 1;  // The shell runs it: keep it raw.
        continue;
      }
    }
    if (keep) {
      if (c == '>') out[i] = ' ';
    } else {
      out[i] = ' ';
    }
  }
  return out;
}

std::string mask_quoted_newlines(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return std::string(s);
  std::string out(s);
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != '\'' && c == '\\') {
      ++i;
      continue;
    }
    if (quote == '"' && opens_substitution(s, i)) {
      const std::size_t end = substitution_end(s, i);
      if (end != std::string_view::npos) {
        i = end - 1;  // Newlines inside separate commands the shell will run.
        continue;
      }
    }
    if ((c == '\'' && quote != '"') || (c == '"' && quote != '\'')) {
      quote = quote ? 0 : c;
    } else if (quote && c == '\n') {
      out[i] = ' ';
    }
  }
  return out;
}

std::vector<std::string_view> shell_segments(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  char quote = 0;
  auto flush = [&](std::size_t end) {
    if (end > start) out.push_back(s.substr(start, end - start));
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != '\'' && c == '\\') {
      ++i;
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (is_comment_start(s, i)) {
      flush(i);
      while (i < s.size() && s[i] != '\n') ++i;
      start = i + 1;
    } else if (c == ';' || c == '&' || c == '|' || c == '\n') {
      flush(i);
      start = i + 1;
    }
  }
  flush(s.size());
  return out;
}

std::optional<std::vector<std::string>> shell_words(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  auto flush = [&] {
    if (in_word) words.push_back(std::move(word));
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < s.size()) {
      const char next = s[i + 1];
      if (quote == '"' && std::string_view("\"\\$`\n").find(next) == std::string_view::npos)
        word += c;
      if (next != '\n') word += next;
      in_word = true;
      ++i;
      continue;
    }
    if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (is_blank(c)) {
      flush();
    } else if (c == '<' || c == '>') {
      flush();
      std::size_t j = i;
      while (j < s.size() && (s[j] == '<' || s[j] == '>')) ++j;
      words.emplace_back(s.substr(i, j - i));
      i = j - 1;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) return std::nullopt;
  flush();
  return words;
}

std::string program_basename(std::string_view word) {
  const std::size_t slash = word.find_last_of('/');
  return lower_ascii(slash == std::string_view::npos ? word : word.substr(slash + 1));
}

namespace {

struct Wrapper {
  std::string_view name;
  std::array<std::string_view, 8> options_with_argument;
  int positional;  // Operands before the wrapped program (timeout's duration, ...).
};

const Wrapper* find_wrapper(std::string_view name) {
  static const std::array<Wrapper, 21> kWrappers = {{
      {"sudo", {"-u", "-g", "-h", "-p", "-c", "--user", "--group", "--prompt"}, 0},
      {"doas", {"-u", "-C"}, 0},
      {"env", {"-u", "-C", "-a", "--unset", "--chdir", "--argv0"}, 0},
      {"exec", {"-a"}, 0},
      {"nohup", {}, 0},
      {"setsid", {}, 0},
      {"time", {"-f", "-o", "--format", "--output"}, 0},
      {"command", {}, 0},
      {"builtin", {}, 0},
      {"nice", {"-n", "--adjustment"}, 0},
      {"timeout", {"-k", "-s", "--kill-after", "--signal"}, 1},
      {"stdbuf", {"-i", "-o", "-e", "--input", "--output", "--error"}, 0},
      {"ionice", {"-c", "-n", "--class", "--classdata"}, 0},
      {"chrt", {}, 1},
      {"taskset", {}, 1},
      {"chroot", {"--userspec", "--groups"}, 1},
      // watch runs its words through sh -c every few seconds; xargs runs its command on
      // every input line; the multi-call binaries run the applet named next.
      {"watch", {"-n", "--interval"}, 0},
      {"xargs", {"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s"}, 0},
      {"busybox", {}, 0},
      {"toybox", {}, 0},
      {"unbuffer", {}, 0},
  }};
  auto it = std::find_if(kWrappers.begin(), kWrappers.end(),
                         [&](const Wrapper& wr) { return wr.name == name; });
  return it == kWrappers.end() ? nullptr : &*it;
}

}  // namespace

bool is_command_wrapper(std::string_view name) {
  return find_wrapper(name) != nullptr;
}

std::optional<std::size_t> shell_program_index(const std::vector<std::string>& words) {
  const Wrapper* wrapper = nullptr;
  int positional = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (wrapper != nullptr && w.size() > 1 && w[0] == '-') {
      if (wrapper->name == "command" &&
          (w.find('v') != std::string::npos || w.find('V') != std::string::npos)) {
        return std::nullopt;  // `command -v x` only asks where x is.
      }
      const auto& opts = wrapper->options_with_argument;
      if (w.find('=') == std::string::npos && std::find(opts.begin(), opts.end(), w) != opts.end())
        ++i;
      continue;
    }
    if (positional > 0) {
      --positional;
      continue;
    }
    const std::size_t eq = w.find('=');
    if (eq != std::string::npos && eq > 0 &&
        std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq),
                    [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; })) {
      continue;  // NAME=value
    }
    const Wrapper* found = find_wrapper(program_basename(w));
    if (found == nullptr) return i;
    wrapper = found;
    positional = found->positional;
  }
  return std::nullopt;
}

}  // namespace hermes::internal
