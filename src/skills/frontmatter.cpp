#include "skills/frontmatter.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace hermes::internal {
namespace {

struct Line {
  int indent = 0;
  std::string text;  // Without indentation, trailing blanks and comments.
  std::string raw;   // The line as written (block scalars need it).
  int number = 0;
  bool blank() const { return text.empty(); }
};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string trim_blanks(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

// `text` without a trailing comment: a # at the start or after a blank, outside quotes.
std::string strip_comment(const std::string& text) {
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '"' && c == '\\') {
      ++i;
    } else if (quote) {
      if (c == quote) quote = 0;
    } else if ((c == '"' || c == '\'') &&
               (i == 0 ||
                std::string_view(" \t[{,:-").find(text[i - 1]) != std::string_view::npos)) {
      quote = c;
    } else if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      return rtrim(text.substr(0, i));
    }
  }
  return rtrim(text);
}

bool is_sequence_item(const std::string& text) {
  return text == "-" || text.starts_with("- ");
}

// The offset of the ':' separating a key from its value, or npos.
std::size_t mapping_colon(std::string_view text) {
  char quote = 0;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '"' && c == '\\') {
      ++i;
    } else if (quote) {
      if (c == quote) quote = 0;
    } else if ((c == '"' || c == '\'') && i == 0) {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ':' && depth == 0 &&
               (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t')) {
      return i;
    }
  }
  return std::string_view::npos;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A plain scalar resolved as PyYAML's safe loader would.
Json resolve_plain(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  for (const char* t : {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}) {
    if (s == t) return true;
  }
  for (const char* f : {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}) {
    if (s == f) return false;
  }
  const std::string_view unsigned_part =
      (s[0] == '-' || s[0] == '+') ? std::string_view(s).substr(1) : std::string_view(s);
  if (all_digits(unsigned_part) && unsigned_part.size() < 19)
    return std::strtoll(s.c_str(), nullptr, 10);
  if (s == ".inf" || s == "+.inf") return std::numeric_limits<double>::infinity();
  if (s == "-.inf") return -std::numeric_limits<double>::infinity();
  const std::size_t dot = unsigned_part.find('.');
  if (dot != std::string_view::npos) {
    std::string_view mantissa = unsigned_part;
    std::string_view exponent;
    if (const std::size_t e = unsigned_part.find_first_of("eE"); e != std::string_view::npos) {
      mantissa = unsigned_part.substr(0, e);
      exponent = unsigned_part.substr(e + 1);
      if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+'))
        exponent.remove_prefix(1);
      if (!all_digits(exponent)) return s;
    }
    const std::string_view whole = mantissa.substr(0, dot);
    const std::string_view frac =
        dot < mantissa.size() ? mantissa.substr(dot + 1) : std::string_view();
    if ((whole.empty() || all_digits(whole)) && (frac.empty() || all_digits(frac)) &&
        !(whole.empty() && frac.empty())) {
      return std::strtod(s.c_str(), nullptr);
    }
  }
  return s;
}

class YamlParser {
 public:
  explicit YamlParser(std::vector<Line> lines) : lines_(std::move(lines)) {}

  Result<Json> parse() {
    skip_blank();
    Json root = at_end() ? Json(nullptr) : parse_node(lines_[pos_].indent);
    skip_blank();
    if (error_.empty() && !at_end())
      fail(lines_[pos_].number, "unexpected content (check the indentation)");
    if (!error_.empty()) return Status::invalid_argument(error_);
    return root;
  }

 private:
  bool at_end() const { return pos_ >= lines_.size(); }
  void skip_blank() {
    while (!at_end() && lines_[pos_].blank()) ++pos_;
  }
  void fail(int line, const std::string& what) {
    if (error_.empty()) error_ = "line " + std::to_string(line) + ": " + what;
    pos_ = lines_.size();
  }

  Json parse_node(int indent) {
    skip_blank();
    if (at_end() || lines_[pos_].indent < indent) return nullptr;
    const Line& line = lines_[pos_];
    if (is_sequence_item(line.text)) return parse_sequence(line.indent);
    if (mapping_colon(line.text) != std::string::npos) return parse_mapping(line.indent);
    ++pos_;
    return inline_value(line.text, line.indent - 1, line.number);
  }

  Json parse_mapping(int indent) {
    Json obj = Json::object();
    while (true) {
      skip_blank();
      if (at_end() || lines_[pos_].indent < indent) break;
      const Line line = lines_[pos_];
      if (line.indent > indent) {
        fail(line.number, "unexpected indentation");
        break;
      }
      const std::size_t colon = mapping_colon(line.text);
      if (is_sequence_item(line.text) || colon == std::string::npos) {
        fail(line.number, "expected 'key: value'");
        break;
      }
      Json key = inline_value(trim_blanks(line.text.substr(0, colon)), indent, line.number);
      const std::string value_text = trim_blanks(line.text.substr(colon + 1));
      ++pos_;
      Json value = mapping_value(value_text, indent, line.number);
      obj[key.is_string() ? key.get<std::string>() : key.dump()] = std::move(value);
    }
    return obj;
  }

  Json mapping_value(const std::string& text, int indent, int number) {
    if (!text.empty() && (text[0] == '|' || text[0] == '>'))
      return block_scalar(text, indent, number);
    if (!text.empty()) return inline_value(text, indent, number);
    skip_blank();
    if (at_end()) return nullptr;
    const Line& next = lines_[pos_];
    if (next.indent > indent) return parse_node(next.indent);
    // "key:" followed by "- item" at the same indentation is a sequence value.
    if (next.indent == indent && is_sequence_item(next.text)) return parse_sequence(indent);
    return nullptr;
  }

  Json parse_sequence(int indent) {
    Json arr = Json::array();
    while (true) {
      skip_blank();
      if (at_end() || lines_[pos_].indent != indent || !is_sequence_item(lines_[pos_].text)) break;
      Line& line = lines_[pos_];
      const std::string rest = line.text.size() > 1 ? trim_blanks(line.text.substr(1)) : "";
      if (rest.empty()) {
        ++pos_;
        skip_blank();
        arr.push_back(!at_end() && lines_[pos_].indent > indent ? parse_node(lines_[pos_].indent)
                                                                : Json(nullptr));
        continue;
      }
      if (rest[0] != '[' && rest[0] != '{' && mapping_colon(rest) != std::string::npos) {
        // "- key: value": a mapping whose keys line up with this first one.
        line.indent = indent + static_cast<int>(line.text.size() - rest.size());
        line.text = rest;
        arr.push_back(parse_mapping(line.indent));
        continue;
      }
      if (is_sequence_item(rest)) {
        fail(line.number, "nested '- -' sequences are not supported");
        break;
      }
      ++pos_;
      arr.push_back(inline_value(rest, indent, line.number));
    }
    return arr;
  }

  // A value written after "key:" or "- ": flow collections and quoted strings may go on
  // over the following lines, plain scalars fold more-indented continuation lines.
  Json inline_value(std::string text, int indent, int number) {
    if (!text.empty() && (text[0] == '&' || text[0] == '*' || text[0] == '!')) {
      fail(number, "anchors, aliases and tags are not supported");
      return nullptr;
    }
    if (!text.empty() && (text[0] == '[' || text[0] == '{' || text[0] == '"' || text[0] == '\'')) {
      while (!complete(text) && !at_end()) text += " " + lines_[pos_++].text;
      std::size_t i = 0;
      Json v = flow_value(text, i, number);
      skip_spaces(text, i);
      if (error_.empty() && i < text.size()) fail(number, "unexpected text after a value");
      return v;
    }
    while (!at_end() && !lines_[pos_].blank() && lines_[pos_].indent > indent &&
           !is_sequence_item(lines_[pos_].text) &&
           mapping_colon(lines_[pos_].text) == std::string::npos) {
      text += " " + lines_[pos_++].text;
    }
    return resolve_plain(text);
  }

  // Whether the quotes and brackets of `text` are closed.
  static bool complete(const std::string& text) {
    char quote = 0;
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (quote == '"' && c == '\\') {
        ++i;
      } else if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        --depth;
      }
    }
    return quote == 0 && depth <= 0;
  }

  static void skip_spaces(const std::string& s, std::size_t& i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }

  Json flow_value(const std::string& s, std::size_t& i, int number) {
    skip_spaces(s, i);
    if (i >= s.size()) return nullptr;
    if (s[i] == '[') return flow_sequence(s, i, number);
    if (s[i] == '{') return flow_mapping(s, i, number);
    if (s[i] == '"' || s[i] == '\'') return quoted(s, i, number);
    const std::size_t b = i;
    while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != '}' &&
           !(s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' '))) {
      ++i;
    }
    return resolve_plain(trim_blanks(std::string_view(s).substr(b, i - b)));
  }

  Json flow_sequence(const std::string& s, std::size_t& i, int number) {
    Json arr = Json::array();
    ++i;  // [
    while (error_.empty()) {
      skip_spaces(s, i);
      if (i >= s.size()) {
        fail(number, "unterminated flow sequence");
        break;
      }
      if (s[i] == ']') {
        ++i;
        break;
      }
      arr.push_back(flow_value(s, i, number));
      skip_spaces(s, i);
      if (i < s.size() && s[i] == ',') {
        ++i;
      } else if (i >= s.size() || s[i] != ']') {
        fail(number, "expected ',' or ']'");
      }
    }
    return arr;
  }

  Json flow_mapping(const std::string& s, std::size_t& i, int number) {
    Json obj = Json::object();
    ++i;  // {
    while (error_.empty()) {
      skip_spaces(s, i);
      if (i >= s.size()) {
        fail(number, "unterminated flow mapping");
        break;
      }
      if (s[i] == '}') {
        ++i;
        break;
      }
      Json key = flow_value(s, i, number);
      skip_spaces(s, i);
      Json value = nullptr;
      if (i < s.size() && s[i] == ':') {
        ++i;
        value = flow_value(s, i, number);
      }
      obj[key.is_string() ? key.get<std::string>() : key.dump()] = std::move(value);
      skip_spaces(s, i);
      if (i < s.size() && s[i] == ',') {
        ++i;
      } else if (i >= s.size() || s[i] != '}') {
        fail(number, "expected ',' or '}'");
      }
    }
    return obj;
  }

  Json quoted(const std::string& s, std::size_t& i, int number) {
    const char q = s[i++];
    std::string out;
    while (i < s.size()) {
      const char c = s[i++];
      if (q == '\'' && c == '\'') {
        if (i < s.size() && s[i] == '\'') {
          out += '\'';
          ++i;
          continue;
        }
        return out;
      }
      if (q == '"' && c == '"') return out;
      if (q == '"' && c == '\\' && i < s.size()) {
        const char e = s[i++];
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case '0':
            out += '\0';
            break;
          case ' ':
            out += ' ';
            break;
          default:
            out += e;
            break;
        }
        continue;
      }
      out += c;
    }
    fail(number, "unterminated quoted string");
    return out;
  }

  // | (literal) or > (folded), with an optional chomping indicator (+ keep, - strip).
  Json block_scalar(const std::string& header, int indent, int number) {
    const bool folded = header[0] == '>';
    const char chomp = header.find('-') != std::string::npos   ? '-'
                       : header.find('+') != std::string::npos ? '+'
                                                               : ' ';
    std::vector<std::string> body;
    int block_indent = -1;
    while (!at_end()) {
      const Line& l = lines_[pos_];
      if (!l.blank() && l.indent <= indent) break;
      if (!l.blank() && block_indent < 0) block_indent = l.indent;
      if (!l.blank() && l.indent < block_indent) {
        fail(l.number, "bad indentation in a block scalar");
        return nullptr;
      }
      body.push_back(l.blank() ? "" : rtrim(l.raw).substr(static_cast<std::size_t>(block_indent)));
      ++pos_;
    }
    (void)number;
    std::size_t trailing = 0;
    while (!body.empty() && body.back().empty()) {
      body.pop_back();
      ++trailing;
    }
    std::string out;
    for (std::size_t k = 0; k < body.size(); ++k) {
      if (k > 0) out += (folded && !body[k].empty() && !body[k - 1].empty()) ? " " : "\n";
      out += body[k];
    }
    if (chomp == '-' || body.empty()) return out;
    out += '\n';
    if (chomp == '+') out += std::string(trailing, '\n');
    return out;
  }

  std::vector<Line> lines_;
  std::size_t pos_ = 0;
  std::string error_;
};

Result<std::vector<Line>> frontmatter_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  for (std::size_t b = 0; b <= text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string raw(text.substr(b, e - b));
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    ++number;
    std::size_t indent = 0;
    while (indent < raw.size() && raw[indent] == ' ') ++indent;
    if (indent < raw.size() && raw[indent] == '\t' && !trim_blanks(raw).empty()) {
      return Status::invalid_argument("line " + std::to_string(number) +
                                      ": tabs are not allowed for indentation");
    }
    lines.push_back({static_cast<int>(indent), strip_comment(raw.substr(indent)), raw, number});
    b = e + 1;
  }
  return lines;
}

}  // namespace

Result<Json> parse_yaml_subset(std::string_view text) {
  auto lines = frontmatter_lines(text);
  if (!lines.ok()) return lines.status();
  return YamlParser(std::move(*lines)).parse();
}

Result<SkillDocument> parse_skill_document(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const std::size_t first_end = text.find('\n');
  const std::string first = rtrim(std::string(text.substr(0, first_end)));
  if (first != "---")
    return Status::invalid_argument("SKILL.md must start with YAML frontmatter (---)");
  if (first_end == std::string_view::npos)
    return Status::invalid_argument("SKILL.md frontmatter is not closed with ---");
  std::size_t pos = first_end + 1;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (rtrim(std::string(text.substr(pos, end - pos))) == "---") {
      auto yaml = parse_yaml_subset(text.substr(first_end + 1, pos - first_end - 1));
      if (!yaml.ok())
        return Status::invalid_argument("YAML frontmatter parse error: " + yaml.status().message());
      if (!yaml->is_object()) return Status::invalid_argument("Frontmatter must be a YAML mapping");
      return SkillDocument{std::move(*yaml),
                           std::string(end < text.size() ? text.substr(end + 1) : "")};
    }
    pos = end + 1;
  }
  return Status::invalid_argument("SKILL.md frontmatter is not closed with ---");
}

}  // namespace hermes::internal
