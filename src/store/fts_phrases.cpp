// A lexer for the part of FTS5's query syntax the sanitiser produces. FTS5's rules: space,
// tab, newline and carriage return separate tokens; a bareword is a run of ASCII letters,
// digits, '_', 0x1A or any byte from 0x80 up; "AND", "OR" and "NOT" (upper case only) are
// operators; a string runs to the next quote that is not doubled.
#include "store/fts_phrases.hpp"

namespace hermes::store {
namespace {

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_bareword_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '_' || c == 0x1A;
}

// The end of the string starting at `open` (one past its closing quote), or npos.
std::size_t string_end(std::string_view match, std::size_t open) {
  std::size_t i = open + 1;
  for (;;) {
    i = match.find('"', i);
    if (i == std::string_view::npos) return i;
    if (i + 1 < match.size() && match[i + 1] == '"') {
      i += 2;  // A doubled quote is a quote inside the string.
      continue;
    }
    return i + 1;
  }
}

}  // namespace

std::optional<std::vector<std::string>> fts_phrases(std::string_view match) {
  std::vector<std::string> phrases;
  bool after_phrase = false;  // Whether the previous token was a phrase (may take a '*').
  std::size_t i = 0;
  while (i < match.size()) {
    const char c = match[i];
    if (is_separator(c)) {
      ++i;
    } else if (c == '*') {
      if (!after_phrase) return std::nullopt;
      phrases.back() += '*';
      after_phrase = false;
      ++i;
    } else if (c == '"') {
      const std::size_t end = string_end(match, i);
      if (end == std::string_view::npos) return std::nullopt;
      phrases.emplace_back(match.substr(i, end - i));
      after_phrase = true;
      i = end;
    } else if (is_bareword_char(c)) {
      std::size_t end = i;
      while (end < match.size() && is_bareword_char(match[end])) ++end;
      const std::string_view word = match.substr(i, end - i);
      if (word == "NEAR") return std::nullopt;  // A NEAR group, or a word FTS5 might take as one.
      after_phrase = word != "AND" && word != "OR" && word != "NOT";
      if (after_phrase) phrases.emplace_back(word);
      i = end;
    } else {
      return std::nullopt;
    }
  }
  return phrases;
}

}  // namespace hermes::store
