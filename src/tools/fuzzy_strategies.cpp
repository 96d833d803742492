// The matching strategies of the fuzzy patch, in the order they are tried.
#include "tools/fuzzy_strategies.hpp"

#include <algorithm>
#include <functional>

#include "common/text_utils.hpp"
#include "safety/regex_program.hpp"
#include "tools/fuzzy_match.hpp"
#include "tools/sequence_similarity.hpp"

namespace hermes::internal {
namespace {

std::string lstrip(std::string_view s) {
  const std::size_t b = s.find_first_not_of(kAsciiSpace);
  return b == std::string_view::npos ? "" : std::string(s.substr(b));
}

std::string join_lines(const std::vector<std::string>& lines, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += '\n';
    out += lines[i];
  }
  return out;
}

template <typename F>
std::vector<std::string> map_lines(std::string_view text, F f) {
  std::vector<std::string> out;
  for (std::string_view l : split_lines(text)) out.push_back(f(l));
  return out;
}

// Blocks of content lines that equal the pattern after both were normalised line by line.
Spans normalized_line_matches(std::string_view content, const std::vector<std::string>& norm_lines,
                              const std::string& norm_pattern) {
  const std::vector<std::string_view> content_lines = split_lines(content);
  const std::size_t n = split_lines(norm_pattern).size();
  Spans out;
  for (std::size_t i = 0; i + n <= norm_lines.size(); ++i) {
    if (join_lines(norm_lines, i, i + n) == norm_pattern)
      out.push_back(line_span(content_lines, i, i + n, content.size()));
  }
  return out;
}

Spans line_trimmed(const std::string& content, const std::string& pattern) {
  const std::vector<std::string> pattern_lines = map_lines(pattern, strip);
  return normalized_line_matches(content, map_lines(content, strip),
                                 join_lines(pattern_lines, 0, pattern_lines.size()));
}

// Runs of spaces and tabs collapse to one space; positions map back to whole runs.
struct CollapsedText {
  std::string text;
  std::vector<std::size_t> begin;  // Original offset where each character starts.
  std::vector<std::size_t> end;    // Original offset just past it.
};

CollapsedText collapse_blanks(std::string_view s) {
  CollapsedText c;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == ' ' || s[i] == '\t') {
      std::size_t j = i;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
      c.text += ' ';
      c.begin.push_back(i);
      c.end.push_back(j);
      i = j;
    } else {
      c.text += s[i];
      c.begin.push_back(i);
      c.end.push_back(i + 1);
      ++i;
    }
  }
  return c;
}

Spans whitespace_normalized(const std::string& content, const std::string& pattern) {
  const CollapsedText c = collapse_blanks(content);
  const std::string p = collapse_blanks(pattern).text;
  Spans out;
  for (auto [b, e] : exact_matches(c.text, p)) out.emplace_back(c.begin[b], c.end[e - 1]);
  return out;
}

Spans indentation_flexible(const std::string& content, const std::string& pattern) {
  const std::vector<std::string> pattern_lines = map_lines(pattern, lstrip);
  return normalized_line_matches(content, map_lines(content, lstrip),
                                 join_lines(pattern_lines, 0, pattern_lines.size()));
}

Spans escape_normalized(const std::string& content, const std::string& pattern) {
  std::string unescaped;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() &&
        std::string_view("ntr").find(pattern[i + 1]) != std::string_view::npos) {
      unescaped += pattern[i + 1] == 'n' ? '\n' : pattern[i + 1] == 't' ? '\t' : '\r';
      ++i;
    } else {
      unescaped += pattern[i];
    }
  }
  if (unescaped == pattern) return {};
  return exact_matches(content, unescaped);
}

Spans trimmed_boundary(const std::string& content, const std::string& pattern) {
  std::vector<std::string> p =
      map_lines(pattern, [](std::string_view l) { return std::string(l); });
  p.front() = strip(p.front());
  if (p.size() > 1) p.back() = strip(p.back());
  const std::string want = join_lines(p, 0, p.size());
  const std::vector<std::string_view> lines = split_lines(content);
  Spans out;
  for (std::size_t i = 0; i + p.size() <= lines.size(); ++i) {
    std::vector<std::string> block(lines.begin() + static_cast<std::ptrdiff_t>(i),
                                   lines.begin() + static_cast<std::ptrdiff_t>(i + p.size()));
    block.front() = strip(block.front());
    if (block.size() > 1) block.back() = strip(block.back());
    if (join_lines(block, 0, block.size()) == want)
      out.push_back(line_span(lines, i, i + p.size(), content.size()));
  }
  return out;
}

Spans unicode_normalized(const std::string& content, const std::string& pattern) {
  const NormalizedText norm = unicode_normalize(content);
  const std::string norm_pattern = unicode_normalize(pattern).text;
  if (norm.text == content && norm_pattern == pattern) return {};
  Spans found = exact_matches(norm.text, norm_pattern);
  if (found.empty()) found = line_trimmed(norm.text, norm_pattern);
  Spans out;
  for (auto [b, e] : found) {
    if (auto span = norm.to_original(b, e)) out.push_back(*span);
  }
  return out;
}

Spans block_anchor(const std::string& content, const std::string& pattern) {
  const std::vector<std::string> p =
      map_lines(unicode_normalize(pattern).text, [](std::string_view l) { return std::string(l); });
  if (p.size() < 2) return {};
  const std::vector<std::string> lines =
      map_lines(unicode_normalize(content).text, [](std::string_view l) { return std::string(l); });
  const std::vector<std::string_view> original_lines = split_lines(content);
  const std::string first = strip(p.front());
  const std::string last = strip(p.back());
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i + p.size() <= lines.size(); ++i) {
    if (strip(lines[i]) == first && strip(lines[i + p.size() - 1]) == last) candidates.push_back(i);
  }
  // Several candidates need a closer middle to tell them apart.
  const double threshold = candidates.size() == 1 ? 0.50 : 0.70;
  Spans out;
  for (std::size_t i : candidates) {
    const double similarity = p.size() <= 2
                                  ? 1.0
                                  : similarity_ratio(join_lines(lines, i + 1, i + p.size() - 1),
                                                     join_lines(p, 1, p.size() - 1));
    if (similarity >= threshold)
      out.push_back(line_span(original_lines, i, i + p.size(), content.size()));
  }
  return out;
}

double line_similarity(const std::string& a, const std::string& b) {
  return a == b ? 1.0 : similarity_ratio(a, b);
}

// Last resort: the first and last lines anchor a window, and every non-blank pattern line
// must be closely similar to its line in the window.
Spans context_aware(const std::string& content, const std::string& pattern) {
  constexpr double kThreshold = 0.80;
  const std::vector<std::string_view> p = split_lines(pattern);
  const std::vector<std::string_view> lines = split_lines(content);
  if (p.size() > lines.size()) return {};
  const std::string first = strip(p.front());
  const std::string last = strip(p.back());
  Spans out;
  for (std::size_t i = 0; i + p.size() <= lines.size(); ++i) {
    if (line_similarity(first, strip(lines[i])) < kThreshold) continue;
    if (line_similarity(last, strip(lines[i + p.size() - 1])) < kThreshold) continue;
    bool all = true;
    for (std::size_t k = 0; k < p.size() && all; ++k) {
      const std::string pl = strip(p[k]);
      all = pl.empty() || line_similarity(pl, strip(lines[i + k])) >= kThreshold;
    }
    if (all) out.push_back(line_span(lines, i, i + p.size(), content.size()));
  }
  return out;
}

// Ordinary punctuation for typographic characters, as models type them.
std::string_view ascii_for(char32_t cp) {
  switch (cp) {
    case 0x201C:
    case 0x201D:
      return "\"";
    case 0x2018:
    case 0x2019:
      return "'";
    case 0x2014:
      return "--";
    case 0x2013:
    case 0x2212:
      return "-";
    case 0x2026:
      return "...";
    case 0x00A0:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return " ";
    default:
      return (cp >= 0x2000 && cp <= 0x200A) ? " " : "";
  }
}

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t b = 0;;) {
    const std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) {
      out.push_back(text.substr(b));
      return out;
    }
    out.push_back(text.substr(b, e - b));
    b = e + 1;
  }
}

std::pair<std::size_t, std::size_t> line_span(const std::vector<std::string_view>& lines,
                                              std::size_t first, std::size_t end_line,
                                              std::size_t content_size) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < first; ++i) start += lines[i].size() + 1;
  std::size_t end = start;
  for (std::size_t i = first; i < end_line; ++i) end += lines[i].size() + 1;
  return {start, std::min(content_size, end - 1)};
}

Spans exact_matches(std::string_view content, std::string_view pattern) {
  Spans out;
  if (pattern.empty()) return out;
  // Past each whole match, like str.replace: overlapping spans would corrupt replace_all.
  for (std::size_t p = content.find(pattern); p != std::string_view::npos;
       p = content.find(pattern, p + pattern.size())) {
    out.emplace_back(p, p + pattern.size());
  }
  return out;
}

NormalizedText unicode_normalize(std::string_view text) {
  NormalizedText n;
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8_at(text, i);
    n.original_offsets.push_back(i);
    n.normalized_offsets.push_back(n.text.size());
    const std::string_view ascii = ascii_for(c.cp);
    n.text += ascii.empty() ? text.substr(i, c.length) : ascii;
    i += c.length;
  }
  n.original_offsets.push_back(text.size());
  n.normalized_offsets.push_back(n.text.size());
  return n;
}

std::optional<std::pair<std::size_t, std::size_t>> NormalizedText::to_original(
    std::size_t begin, std::size_t end) const {
  auto it = std::find(normalized_offsets.begin(), normalized_offsets.end() - 1, begin);
  if (it == normalized_offsets.end() - 1) return std::nullopt;
  std::size_t k = static_cast<std::size_t>(it - normalized_offsets.begin());
  const std::size_t orig_begin = original_offsets[k];
  while (k + 1 < normalized_offsets.size() && normalized_offsets[k] < end) ++k;
  return std::make_pair(orig_begin, original_offsets[k]);
}

std::pair<Spans, std::string> fuzzy_find(const std::string& content, const std::string& pattern) {
  using Strategy = Spans (*)(const std::string&, const std::string&);
  static const std::pair<const char*, Strategy> kChain[] = {
      {"exact", [](const std::string& c, const std::string& p) { return exact_matches(c, p); }},
      {"line_trimmed", line_trimmed},
      {"whitespace_normalized", whitespace_normalized},
      {"indentation_flexible", indentation_flexible},
      {"escape_normalized", escape_normalized},
      {"trimmed_boundary", trimmed_boundary},
      {"unicode_normalized", unicode_normalized},
      {"block_anchor", block_anchor},
      {"context_aware", context_aware},
  };
  for (const auto& [name, strategy] : kChain) {
    Spans found = strategy(content, pattern);
    if (!found.empty()) return {std::move(found), name};
  }
  return {};
}

}  // namespace hermes::internal
