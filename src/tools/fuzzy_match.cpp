// The replacement step of the fuzzy patch: refusals, indentation and Unicode fix-ups.
#include "tools/fuzzy_match.hpp"

#include <algorithm>
#include <cstdio>

#include "common/text_utils.hpp"
#include "tools/fuzzy_strategies.hpp"
#include "tools/sequence_similarity.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

std::string_view leading_blanks(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(0, i);
}

std::optional<std::string_view> first_meaningful_line(std::string_view text) {
  for (std::string_view l : split_lines(text)) {
    if (!strip(l).empty()) return l;
  }
  return std::nullopt;
}

std::string regions_text(const std::string& content, const Spans& spans) {
  std::string out;
  for (auto [b, e] : spans) out += content.substr(b, e - b);
  return out;
}

std::string format_locations(const std::string& content, const Spans& spans) {
  constexpr std::size_t kCap = 5;
  std::string out;
  for (std::size_t k = 0; k < spans.size() && k < kCap; ++k) {
    const std::size_t start = spans[k].first;
    const auto line_no =
        std::count(content.begin(), content.begin() + static_cast<std::ptrdiff_t>(start), '\n') + 1;
    const std::size_t newline = start == 0 ? std::string::npos : content.rfind('\n', start - 1);
    const std::size_t line_start = newline == std::string::npos ? 0 : newline + 1;
    std::size_t line_end = content.find('\n', line_start);
    if (line_end == std::string::npos) line_end = content.size();
    std::string snippet =
        strip(std::string_view(content).substr(line_start, line_end - line_start));
    if (utf8_length(snippet) > 80) snippet = std::string(utf8_head(snippet, 77)) + "...";
    out += (k ? "\n" : "") + std::string("  L") + std::to_string(line_no) + ": " + snippet;
  }
  if (spans.size() > kCap) out += "\n  ... and " + std::to_string(spans.size() - kCap) + " more";
  return out;
}

// \' or \" in both strings but not in the file: a transport added a backslash.
std::optional<std::string> escape_drift(const std::string& content, const Spans& spans,
                                        const std::string& old_string,
                                        const std::string& new_string) {
  const std::string matched = regions_text(content, spans);
  for (std::string_view suspect : {"\\'", "\\\""}) {
    if (new_string.find(suspect) != std::string::npos &&
        old_string.find(suspect) != std::string::npos &&
        matched.find(suspect) == std::string::npos) {
      return "Escape-drift detected: old_string and new_string contain the literal sequence " +
             std::string(suspect) +
             " but the matched region of the file does not. This is almost always a tool-call "
             "serialization "
             "artifact (a backslash added before an apostrophe or quote). Re-read the file with "
             "read_file and "
             "send old_string/new_string without backslash-escaping " +
             std::string(1, suspect[1]) + " characters.";
    }
  }
  return std::nullopt;
}

bool opens_block(std::string_view line) {
  std::string s = strip(line);
  return !s.empty() && (s.back() == ':' || s.back() == '{' || s.back() == '(');
}

// After a non-exact match the replacement is not re-indented when the indents agree, so a
// line indented deeper than anything in old_string, with no block opened, is a typo.
std::optional<std::string> rogue_indent(const std::string& old_string,
                                        const std::string& new_string) {
  std::vector<std::string_view> old_lines, new_lines;
  for (std::string_view l : split_lines(old_string)) {
    if (!strip(l).empty()) old_lines.push_back(l);
  }
  for (std::string_view l : split_lines(new_string)) {
    if (!strip(l).empty()) new_lines.push_back(l);
  }
  if (old_lines.empty() || new_lines.empty()) return std::nullopt;
  if (std::any_of(old_lines.begin(), old_lines.end(), opens_block) ||
      std::any_of(new_lines.begin(), new_lines.end(), opens_block)) {
    return std::nullopt;
  }
  std::size_t max_old = 0;
  for (std::string_view l : old_lines) max_old = std::max(max_old, leading_blanks(l).size());
  std::vector<std::string_view> deeper;
  for (std::string_view l : new_lines) {
    if (leading_blanks(l).size() > max_old) deeper.push_back(l);
  }
  if (deeper.empty()) return std::nullopt;
  return "Suspicious indentation in new_string: " + std::to_string(deeper.size()) +
         " line(s) indented deeper than old_string's deepest indent (" + std::to_string(max_old) +
         " characters), but neither old_string nor new_string opens a block (':', '{', '('). This "
         "looks like an "
         "indentation typo; check the indentation of: " +
         std::string(utf8_head(strip(deeper.front()), 60));
}

// \t and \r escapes become real characters only where the matched text has them.
std::string unescape_controls(std::string new_string, const std::string& content,
                              const Spans& spans) {
  if (new_string.find("\\t") == std::string::npos && new_string.find("\\r") == std::string::npos)
    return new_string;
  const std::string matched = regions_text(content, spans);
  auto replace_all = [&](std::string_view from, char to) {
    for (std::size_t p = new_string.find(from); p != std::string::npos;
         p = new_string.find(from, p + 1)) {
      new_string.replace(p, from.size(), 1, to);
    }
  };
  if (matched.find('\t') != std::string::npos) replace_all("\\t", '\t');
  if (matched.find('\r') != std::string::npos) replace_all("\\r", '\r');
  return new_string;
}

// The unicode strategy matched ASCII old_string to a file with smart quotes and dashes:
// apply only the edits from old_string to new_string, keeping the file's characters
// wherever the two agree.
std::string keep_file_unicode(const std::string& content, const Spans& spans,
                              const std::string& old_string, const std::string& new_string) {
  const std::string region = regions_text(content, spans);
  const NormalizedText file = unicode_normalize(region);
  const std::string norm_old = unicode_normalize(old_string).text;
  if (norm_old != file.text) return new_string;
  // Positions in code points, as the edit script counts them.
  const std::u32string norm_cp = to_code_points(norm_old);
  const std::u32string new_cp = to_code_points(new_string);
  const std::u32string region_cp = to_code_points(region);
  std::vector<std::size_t> orig_to_norm;  // Per region code point: its normalized position.
  std::size_t norm_pos = 0;
  for (char32_t cp : region_cp) {
    orig_to_norm.push_back(norm_pos);
    norm_pos += to_code_points(unicode_normalize(to_utf8(std::u32string(1, cp))).text).size();
  }
  orig_to_norm.push_back(norm_pos);
  std::u32string out;
  for (const EditOp& op : edit_ops(norm_cp, new_cp)) {
    if (op.kind == EditOp::kEqual) {
      auto it = std::find(orig_to_norm.begin(), orig_to_norm.end() - 1, op.a_begin);
      std::size_t b = static_cast<std::size_t>(it - orig_to_norm.begin());
      std::size_t e = b;
      while (e < region_cp.size() && orig_to_norm[e] < op.a_end) ++e;
      out += region_cp.substr(b, e - b);
    } else if (op.kind != EditOp::kDelete) {
      out += new_cp.substr(op.b_begin, op.b_end - op.b_begin);
    }
  }
  return to_utf8(out);
}

// Moves new_string from the model's indentation to the file's, keeping relative nesting.
std::string reindent(std::string_view region, const std::string& old_string,
                     const std::string& new_string) {
  if (new_string.empty()) return new_string;
  auto old_first = first_meaningful_line(old_string);
  auto file_first = first_meaningful_line(region);
  if (!old_first || !file_first) return new_string;
  const std::string_view old_indent = leading_blanks(*old_first);
  const std::string_view file_indent = leading_blanks(*file_first);
  if (old_indent == file_indent) return new_string;
  std::string out;
  bool first = true;
  for (std::string_view line : split_lines(new_string)) {
    if (!first) out += '\n';
    first = false;
    if (strip(line).empty()) {
      out += line;
    } else if (leading_blanks(line).substr(0, old_indent.size()) == old_indent &&
               leading_blanks(line).size() >= old_indent.size()) {
      out += std::string(file_indent) + std::string(line.substr(old_indent.size()));
    } else {
      out += std::string(file_indent) + std::string(line.substr(leading_blanks(line).size()));
    }
  }
  return out;
}

}  // namespace

FuzzyReplaceResult fuzzy_find_and_replace(const std::string& content, const std::string& old_string,
                                          const std::string& new_string, bool replace_all) {
  auto fail = [&](std::string error) {
    return FuzzyReplaceResult{content, 0, "", std::move(error)};
  };
  if (old_string.empty()) return fail("old_string cannot be empty");
  if (strip(old_string).empty())
    return fail("old_string is only whitespace \xE2\x80\x94 provide non-blank text to match");
  if (old_string == new_string) return fail("old_string and new_string are identical");
  auto [spans, strategy] = fuzzy_find(content, old_string);
  if (spans.empty()) return fail("Could not find a match for old_string in the file");
  if (spans.size() > 1 && !replace_all) {
    return fail(
        "Found " + std::to_string(spans.size()) +
        " matches for old_string. Provide more context to make it unique, or use replace_all=True. "
        "Matches:\n" +
        format_locations(content, spans));
  }
  // Replacing every approximate match would rewrite regions that do not contain old_string.
  if (replace_all && spans.size() > 1 &&
      (strategy == "block_anchor" || strategy == "context_aware")) {
    return fail("Found " + std::to_string(spans.size()) + " approximate matches via the '" +
                strategy +
                "' strategy; replace_all only applies to exact matches. Provide the precise text "
                "(whitespace "
                "included) so an exact or line-trimmed match can be made.");
  }
  const bool exact = strategy == "exact";
  if (!exact) {
    if (auto e = escape_drift(content, spans, old_string, new_string)) return fail(*e);
    if (auto e = rogue_indent(old_string, new_string)) return fail(*e);
  }
  std::string replacement = unescape_controls(new_string, content, spans);
  if (strategy == "unicode_normalized")
    replacement = keep_file_unicode(content, spans, old_string, replacement);
  std::sort(spans.begin(), spans.end());
  std::string out = content;
  for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
    const std::string_view region =
        std::string_view(content).substr(it->first, it->second - it->first);
    out.replace(it->first, it->second - it->first,
                exact ? replacement : reindent(region, old_string, replacement));
  }
  return {std::move(out), static_cast<int>(spans.size()), strategy, ""};
}

bool edit_already_applied(const std::string& content, const std::string& old_string,
                          const std::string& new_string) {
  if (new_string.empty() || utf8_length(strip(new_string)) < 8) return false;
  if (content.find(new_string) == std::string::npos) return false;
  return old_string == new_string || content.find(old_string) == std::string::npos;
}

std::string closest_lines_hint(const std::string& old_string, const std::string& content) {
  if (old_string.empty() || content.empty()) return "";
  const std::vector<std::string_view> old_lines = split_lines(old_string);
  const std::vector<std::string_view> lines = split_lines(content);
  std::string anchor;
  for (std::string_view l : old_lines) {
    if (!(anchor = strip(l)).empty()) break;
  }
  if (anchor.empty()) return "";
  std::vector<std::pair<double, std::size_t>> scored;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string s = strip(lines[i]);
    if (s.empty()) continue;
    if (double ratio = similarity_ratio(anchor, s); ratio > 0.3) scored.emplace_back(ratio, i);
  }
  if (scored.empty()) return "";
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  scored.resize(std::min<std::size_t>(scored.size(), 3));
  std::vector<std::string> parts;
  std::vector<std::pair<std::size_t, std::size_t>> seen;
  for (const auto& [ratio, idx] : scored) {
    const std::size_t start = idx >= 2 ? idx - 2 : 0;
    const std::size_t end = std::min(lines.size(), idx + old_lines.size() + 2);
    if (std::find(seen.begin(), seen.end(), std::make_pair(start, end)) != seen.end()) continue;
    seen.emplace_back(start, end);
    std::string snippet;
    for (std::size_t k = start; k < end; ++k) {
      char num[32];
      std::snprintf(num, sizeof num, "%4zu| ", k + 1);
      snippet += (k > start ? "\n" : "") + std::string(num) + std::string(lines[k]);
    }
    parts.push_back(std::move(snippet));
  }
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? "\n---\n" : "") + parts[k];
  const std::string_view best = lines[scored.front().second];
  if (strip(best) == anchor && best != old_lines.front()) {
    auto visible = [](std::string_view l) {
      std::string v;
      std::size_t i = 0;
      for (; i < l.size() && (l[i] == ' ' || l[i] == '\t'); ++i)
        v += l[i] == '\t' ? "\xE2\x86\x92" : "\xC2\xB7";
      return v + std::string(l.substr(i));
    };
    out +=
        "\n\nWhitespace difference detected (\xE2\x86\x92 = tab, \xC2\xB7 = space):\n  file has: " +
        visible(best) + "\n  you sent: " + visible(old_lines.front()) +
        "\nUse the exact whitespace shown in 'file has'.";
  }
  return out;
}

}  // namespace hermes::internal
