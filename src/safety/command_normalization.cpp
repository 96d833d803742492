#include "safety/command_normalization.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/text_utils.hpp"
#include "safety/ansi_escape.hpp"
#include "safety/regex_program.hpp"
#include "safety/shell_commands.hpp"

namespace hermes::internal {
namespace {

// The ASCII text NFKC gives for `cp`, or an empty view when it keeps the character.
std::string_view compatibility_fold(char32_t cp) {
  static constexpr std::string_view kLigatures[] = {"ff", "fi", "fl", "ffi", "ffl", "st", "st"};
  static constexpr std::string_view kDigits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
  if (cp == 0xA0 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
      cp == 0x205F) {
    return " ";
  }
  if (cp >= 0xFB00 && cp <= 0xFB06) return kLigatures[cp - 0xFB00];
  if (cp == 0xB9) return "1";
  if (cp == 0xB2) return "2";
  if (cp == 0xB3) return "3";
  if (cp == 0x2070) return "0";
  if (cp >= 0x2074 && cp <= 0x2079) return kDigits[cp - 0x2070];
  if (cp >= 0x2080 && cp <= 0x2089) return kDigits[cp - 0x2080];
  return {};
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

// Rewrites `fold.path` followed by a path separator and more path to the replacement.
void apply_home_fold(std::string& s, const HomeFold& fold) {
  const std::string& home = fold.path;
  for (std::size_t pos = s.find(home); pos != std::string::npos; pos = s.find(home, pos + 1)) {
    const std::size_t end = pos + home.size();
    if (end >= s.size() || (s[end] != '/' && s[end] != '\\')) continue;
    std::size_t start = pos;
    while (start > 0 && s[start - 1] == '/') --start;  // "//home/alice" is the same path.
    s.replace(start, end - start, fold.replacement);
    pos = start;
  }
}

bool meaningful_home(const std::string& path) {
  // Two or more components: "/" or "/root" alone would rewrite unrelated text.
  const auto components = std::count_if(path.begin(), path.end(), [](char c) { return c == '/'; });
  return !path.empty() && path[0] == '/' && components >= 2 && path.back() != '/';
}

// ${IFS}, ${IFS:0:1}, $IFS -> a space: the shell splits words on them.
void collapse_ifs(std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 5, "${IFS") == 0 &&
        (i + 5 >= s.size() || !std::isalnum(static_cast<unsigned char>(s[i + 5])))) {
      const std::size_t close = s.find('}', i);
      if (close != std::string::npos) {
        out += ' ';
        i = close;
        continue;
      }
    }
    if (s.compare(i, 4, "$IFS") == 0 &&
        (i + 4 >= s.size() ||
         !(std::isalnum(static_cast<unsigned char>(s[i + 4])) || s[i + 4] == '_'))) {
      out += ' ';
      i += 3;
      continue;
    }
    out += s[i];
  }
  s = std::move(out);
}

}  // namespace

std::vector<HomeFold> default_home_folds(const std::string& hermes_home) {
  std::vector<HomeFold> folds;
  if (meaningful_home(hermes_home)) folds.push_back({hermes_home, "~/.hermes"});
  if (const char* home = std::getenv("HOME"); home != nullptr && meaningful_home(home)) {
    folds.push_back({home, "~"});
  }
  return folds;
}

std::string fold_compatibility_characters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8_at(text, i);
    if (c.cp >= 0xFF01 && c.cp <= 0xFF5E) {
      append_utf8(out, c.cp - 0xFEE0);
    } else if (std::string_view folded = compatibility_fold(c.cp); !folded.empty()) {
      out += folded;
    } else {
      out.append(text.substr(i, c.length));
    }
    i += c.length;
  }
  return out;
}

std::string prepare_command_for_parsing(std::string_view command,
                                        const std::vector<HomeFold>& folds) {
  std::string s = strip_ansi(command);
  s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  s = fold_compatibility_characters(s);
  // Line continuations first: the escape strip of normalisation would leave their
  // backslash behind.
  replace_all(s, "\\\r\n", "");
  replace_all(s, "\\\n", "");
  for (const HomeFold& fold : folds) apply_home_fold(s, fold);
  return s;
}

std::string decode_ansi_c_strings(std::string_view s) {
  if (s.find("$'") == std::string_view::npos) return std::string(s);
  std::string out;
  out.reserve(s.size());
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote == 0 && c == '$' && i + 1 < s.size() && s[i + 1] == '\'') {
      std::size_t end = i + 2;
      while (end < s.size() && s[end] != '\'') end += s[end] == '\\' ? 2 : 1;
      std::string text = decode_ansi_c_body(s.substr(i + 2, std::min(end, s.size()) - i - 2));
      text.erase(std::remove(text.begin(), text.end(), '\''), text.end());
      const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) ||
               std::string_view("_./~+:=,@%-").find(ch) != std::string_view::npos;
      });
      out += plain ? text : "'" + text + "'";
      i = std::min(end, s.size() - 1);
      continue;
    }
    if (quote != '\'' && c == '\\' && i + 1 < s.size()) {
      out += c;
      out += s[++i];
      continue;
    }
    if ((c == '\'' && quote != '"') || (c == '"' && quote != '\'')) quote = quote ? 0 : c;
    out += c;
  }
  return out;
}

std::string normalize_command_for_detection(std::string_view command,
                                            const std::vector<HomeFold>& folds) {
  std::string s = decode_ansi_c_strings(prepare_command_for_parsing(command, folds));
  // Decoding may have spelled out a home path.
  for (const HomeFold& fold : folds) apply_home_fold(s, fold);
  std::string unescaped;
  unescaped.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] != '\n') ++i;  // r\m -> rm
    unescaped += s[i];
  }
  replace_all(unescaped, "''", "");  // r''m -> rm
  replace_all(unescaped, "\"\"", "");
  collapse_ifs(unescaped);
  return unescaped;
}

std::string lower_preserving_flags(std::string_view command) {
  std::string out(command);
  bool word_start = true;
  bool flag = false;
  for (char& c : out) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      word_start = true;
      continue;
    }
    if (word_start) flag = c == '-';
    word_start = false;
    if (!flag) c = lower_ascii(c);
  }
  return out;
}

}  // namespace hermes::internal
