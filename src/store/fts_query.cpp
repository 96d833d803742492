// The sanitiser works on code points: "characters" below are Unicode scalar values, and
// word characters approximate Unicode letters, digits and the underscore.
#include "store/fts_query.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "store/code_points.hpp"

namespace hermes::store {
namespace {

using Text = std::u32string;

// Stands for a protected "phrase" while the rest of the query is rewritten. The input
// cannot contain it: NUL characters are turned into spaces first.
constexpr char32_t kPhraseMark = 0;

constexpr std::u32string_view kSpecialChars = U"+{}():\"^@/#&|~[]<>,;!?$=\\'";

struct Range {
  char32_t first;
  char32_t last;
};

constexpr std::array<Range, 7> kCjkRanges = {{
    {0x4E00, 0x9FFF},    // CJK Unified Ideographs.
    {0x3400, 0x4DBF},    // Extension A.
    {0x20000, 0x2A6DF},  // Extension B.
    {0x3000, 0x303F},    // CJK symbols and punctuation.
    {0x3040, 0x309F},    // Hiragana.
    {0x30A0, 0x30FF},    // Katakana.
    {0xAC00, 0xD7AF},    // Hangul syllables.
}};

// Non-ASCII characters that are punctuation, symbols, marks or spaces rather than parts
// of words.
constexpr std::array<Range, 24> kNonWordRanges = {{
    {0x0080, 0x00A9}, {0x00AB, 0x00B1}, {0x00B4, 0x00B4}, {0x00B6, 0x00B8},   {0x00BB, 0x00BB},
    {0x00BF, 0x00BF}, {0x00D7, 0x00D7}, {0x00F7, 0x00F7}, {0x0300, 0x036F},   {0x2000, 0x206F},
    {0x20A0, 0x20CF}, {0x2190, 0x23FF}, {0x2500, 0x27BF}, {0x2E00, 0x2E7F},   {0x3000, 0x3004},
    {0x3008, 0x3020}, {0x3030, 0x3030}, {0x303D, 0x303F}, {0x30A0, 0x30A0},   {0x30FB, 0x30FB},
    {0xFE30, 0xFE6F}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0x1F000, 0x1FAFF},
}};

template <std::size_t N>
bool in_ranges(char32_t c, const std::array<Range, N>& ranges) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [c](const Range& r) { return c >= r.first && c <= r.last; });
}

bool is_cjk(char32_t c) {
  return in_ranges(c, kCjkRanges);
}

bool is_space(char32_t c) {
  return is_unicode_space(c);
}

bool is_word(char32_t c) {
  if (c < 0x80) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  if (c >= 0xFF3B && c <= 0xFF40) return false;  // Fullwidth brackets and accents.
  if (c >= 0xFF5B && c <= 0xFF65) return false;
  return !is_space(c) && !in_ranges(c, kNonWordRanges);
}

Text decode(std::string_view utf8) {
  return to_code_points(utf8);
}

std::string encode(std::u32string_view text) {
  return to_utf8(text);
}

Text strip(const Text& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

std::vector<Text> split_whitespace(const Text& text) {
  std::vector<Text> words;
  Text word;
  for (char32_t c : text) {
    if (is_space(c)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool is_operator(std::u32string_view word, std::initializer_list<std::u32string_view> names) {
  for (std::u32string_view name : names) {
    if (word.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < word.size() && same; ++i) {
      char32_t c = word[i];
      if (c >= 'a' && c <= 'z') c -= 'a' - 'A';
      same = c == name[i];
    }
    if (same) return true;
  }
  return false;
}

bool is_boolean_operator(std::u32string_view word) {
  return is_operator(word, {U"AND", U"OR", U"NOT"});
}

// Step 1: balanced "phrases" are set aside; a quote left without a partner is a space.
Text protect_phrases(const Text& query, std::vector<Text>& phrases) {
  Text out;
  for (std::size_t i = 0; i < query.size(); ++i) {
    if (query[i] != U'"') {
      out.push_back(query[i]);
      continue;
    }
    const std::size_t close = query.find(U'"', i + 1);
    if (close == Text::npos) {
      out.push_back(U' ');
      continue;
    }
    phrases.push_back(query.substr(i, close - i + 1));
    out.push_back(kPhraseMark);
    i = close;
  }
  return out;
}

// Steps 2 and 3: special characters become spaces; "*" survives only as a prefix marker
// after at least one character.
Text drop_special_characters(const Text& text) {
  const bool keep_percent = std::any_of(text.begin(), text.end(), is_cjk);  // For the LIKE route.
  Text out;
  for (char32_t c : text) {
    const bool special =
        kSpecialChars.find(c) != std::u32string_view::npos || (c == U'%' && !keep_percent);
    if (special) {
      out.push_back(U' ');
    } else if (c == U'*' && (out.empty() || is_space(out.back()) || out.back() == U'*')) {
      continue;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// Step 4: an operator with nothing on one side is a syntax error.
Text drop_dangling_operators(Text text) {
  text = strip(text);
  for (std::u32string_view op : {U"AND", U"OR", U"NOT"}) {
    const std::size_t n = op.size();
    if (text.size() >= n && is_operator(std::u32string_view(text).substr(0, n), {op}) &&
        (text.size() == n || !is_word(text[n]))) {
      text = strip(text.substr(n));
      break;
    }
  }
  for (std::u32string_view op : {U"AND", U"OR", U"NOT"}) {
    const std::size_t n = op.size();
    if (text.size() > n && is_operator(std::u32string_view(text).substr(text.size() - n), {op}) &&
        is_space(text[text.size() - n - 1])) {
      text = strip(text.substr(0, text.size() - n));
      break;
    }
  }
  return text;
}

std::size_t word_run_end(const Text& text, std::size_t i) {
  while (i < text.size() && is_word(text[i])) ++i;
  return i;
}

// Step 5: words joined by '.', '-' or '_' (chat-send, P2.2, my_app.config.ts) become
// quoted phrases, in one pass so no word is quoted twice.
Text quote_compound_words(const Text& text) {
  Text out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_word(text[i]) || (i > 0 && is_word(text[i - 1]))) {
      out.push_back(text[i++]);
      continue;
    }
    std::size_t end = word_run_end(text, i);
    bool joined = false;
    while (end + 1 < text.size() && (text[end] == U'.' || text[end] == U'-') &&
           is_word(text[end + 1])) {
      joined = true;
      end = word_run_end(text, end + 1);
    }
    for (std::size_t k = i + 1; !joined && k + 1 < end; ++k) joined = text[k] == U'_';
    const Text word = text.substr(i, end - i);
    out += joined ? U"\"" + word + U"\"" : word;
    i = end;
  }
  return out;
}

Text restore_phrases(const Text& text, const std::vector<Text>& phrases) {
  Text out;
  std::size_t next = 0;
  for (char32_t c : text) {
    if (c == kPhraseMark && next < phrases.size()) {
      out += phrases[next++];
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::size_t count_cjk(const Text& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), is_cjk));
}

// The words of a query as upstream's LIKE compiler sees them: "quoted phrases" whole,
// otherwise runs of non-space characters.
std::vector<Text> like_tokens(const Text& query) {
  std::vector<Text> tokens;
  std::size_t i = 0;
  while (i < query.size()) {
    if (is_space(query[i])) {
      ++i;
      continue;
    }
    if (query[i] == U'"') {
      const std::size_t close = query.find(U'"', i + 1);
      if (close != Text::npos && close > i + 1) {
        tokens.push_back(query.substr(i, close - i + 1));
        i = close + 1;
        continue;
      }
    }
    std::size_t end = i;
    while (end < query.size() && !is_space(query[end])) ++end;
    tokens.push_back(query.substr(i, end - i));
    i = end;
  }
  return tokens;
}

Text trim_chars(const Text& text, char32_t c) {
  const std::size_t begin = text.find_first_not_of(c);
  if (begin == Text::npos) return {};
  return text.substr(begin, text.find_last_not_of(c) - begin + 1);
}

}  // namespace

std::string sanitize_fts_query(std::string_view query) {
  Text text = decode(query);
  if (text.size() > kMaxQueryChars) text.resize(kMaxQueryChars);
  std::replace(text.begin(), text.end(), kPhraseMark, U' ');
  std::vector<Text> phrases;
  text = protect_phrases(text, phrases);
  text = drop_special_characters(text);
  text = drop_dangling_operators(std::move(text));
  text = quote_compound_words(text);
  return encode(strip(restore_phrases(text, phrases)));
}

bool contains_cjk(std::string_view text) {
  const Text t = decode(text);
  return std::any_of(t.begin(), t.end(), is_cjk);
}

std::vector<std::string> non_operator_tokens(std::string_view query) {
  std::vector<std::string> out;
  for (const Text& word : split_whitespace(decode(query))) {
    if (!is_boolean_operator(word)) out.push_back(encode(word));
  }
  return out;
}

std::string quote_fts_tokens(std::string_view query) {
  std::string out;
  for (const Text& word : split_whitespace(decode(query))) {
    if (!out.empty()) out += ' ';
    if (is_boolean_operator(word)) {
      out += encode(word);
      continue;
    }
    out += '"';
    for (char32_t c : word) {
      if (c == U'"') out += '"';  // FTS5 escapes a quote inside a phrase by doubling it.
      append_utf8(out, c);
    }
    out += '"';
  }
  return out;
}

std::string_view strip_quotes(std::string_view query) {
  const std::size_t begin = query.find_first_not_of('"');
  if (begin == std::string_view::npos) return {};
  query = query.substr(begin, query.find_last_not_of('"') - begin + 1);
  const std::size_t first = query.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) return {};
  return query.substr(first, query.find_last_not_of(" \t\r\n\f\v") - first + 1);
}

bool trigram_can_answer_cjk(std::string_view query) {
  const Text text = decode(query);
  if (count_cjk(text) < 3) return false;
  for (const Text& word : split_whitespace(text)) {
    if (is_boolean_operator(word)) continue;
    const std::size_t cjk = count_cjk(word);
    if (cjk > 0 && cjk < 3) return false;
  }
  return true;
}

bool trigram_can_answer_words(std::string_view query) {
  bool any = false;
  for (const Text& word : split_whitespace(decode(strip_quotes(query)))) {
    if (is_boolean_operator(word)) continue;
    if (word.size() < 3) return false;
    any = true;
  }
  return any;
}

std::vector<LikeGroup> like_groups(std::string_view query) {
  std::vector<LikeGroup> groups(1);
  bool negate_next = false;
  for (const Text& token : like_tokens(decode(query))) {
    if (is_operator(token, {U"OR"})) {
      if (!groups.back().empty()) groups.emplace_back();
      negate_next = false;
      continue;
    }
    if (is_operator(token, {U"AND", U"NEAR"})) continue;
    if (is_operator(token, {U"NOT"})) {
      negate_next = true;
      continue;
    }
    const Text unquoted = trim_chars(token, U'"');
    const Text term = strip(trim_chars(unquoted, U'*'));
    if (term.empty()) continue;
    const bool prefix = !unquoted.empty() && unquoted.back() == U'*';
    groups.back().push_back({encode(term), negate_next, prefix});
    negate_next = false;
  }
  std::erase_if(groups, [](const LikeGroup& group) {
    return std::none_of(group.begin(), group.end(), [](const LikeTerm& t) { return !t.negated; });
  });
  return groups;
}

std::vector<LikeGroup> any_word_like_groups(std::string_view query) {
  std::vector<LikeGroup> groups;
  for (const std::string& word : non_operator_tokens(query)) {
    for (auto& group : like_groups(word)) groups.push_back(std::move(group));
  }
  return groups;
}

std::string mark_match(const std::string& text, std::string_view term) {
  if (term.empty()) return text;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  auto it = std::search(text.begin(), text.end(), term.begin(), term.end(),
                        [&](char a, char b) { return lower(a) == lower(b); });
  if (it == text.end()) return text;
  const auto at = static_cast<std::size_t>(it - text.begin());
  return text.substr(0, at) + ">>>" + text.substr(at, term.size()) + "<<<" +
         text.substr(at + term.size());
}

std::string escape_like(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\' || c == '%' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

std::string first_positive_term(const std::vector<LikeGroup>& groups) {
  for (const auto& group : groups) {
    for (const auto& term : group) {
      if (!term.negated) return term.text;
    }
  }
  return {};
}

}  // namespace hermes::store
