#include "safety/private_keys.hpp"

#include <algorithm>
#include <optional>

#include "common/base64.hpp"
#include "common/text_utils.hpp"
#include "safety/regex.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kRedactedKey = "[REDACTED PRIVATE KEY]";
constexpr std::size_t kPkNone = std::string_view::npos;
// Shorter runs are too short to tell apart from chance.
constexpr std::size_t kMinSignatureRun = 24;
// A key line is at most this long; longer runs are single-line blobs.
constexpr std::size_t kMaxKeyLine = 76;

bool pk_b64(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

enum class PkKind {
  kOther,
  kBlank,
  kBegin,        // -----BEGIN ... PRIVATE KEY----- (or PuTTY's Private-Lines:).
  kEnd,          // -----END ... PRIVATE KEY-----
  kOtherMarker,  // BEGIN or END of something else: a certificate, a public key.
  kHeader,       // PEM encapsulated or armor headers (Proc-Type:, DEK-Info:, ...).
  kFull,         // A full-width key line (64 or 70 base64 characters).
  kTail,         // A shorter base64 line: possibly the last of a key.
};

// One line of the text, by absolute offsets.
struct PkLine {
  std::size_t begin = 0;
  std::size_t end = 0;          // Before the newline.
  std::size_t content_end = 0;  // Before trailing spaces and '\r'.
  std::size_t payload = 0;      // Where the base64 starts (after a tool's prefix).
  std::size_t marker = kPkNone;
  std::size_t marker_end = kPkNone;
  PkKind kind = PkKind::kOther;
  std::string prefix_shape;  // The indentation, or "sep" for a "12|"-style prefix.
};

// What tools put before a line: indentation, a line number ("12|", "    12\t"), a grep
// prefix ("file:12:", "file-12-").
bool pk_prefix_ok(std::string_view prefix) {
  while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t'))
    prefix.remove_suffix(1);
  if (prefix.empty()) return true;
  if (std::all_of(prefix.begin(), prefix.end(),
                  [](char c) { return is_ascii_digit(c) || c == ' ' || c == '\t'; })) {
    return true;
  }
  return prefix.back() == '|' || prefix.back() == ':' || prefix.back() == '-';
}

// Random base64 of a key line has both cases; a line of hex digits (a hash) has not.
bool pk_mixed_case(std::string_view s) {
  const bool upper = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  const bool lower = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  return upper && lower;
}

// "=?" base64 "={0,2}": the body of a key line, a last line, or an armor checksum.
bool pk_base64_line(std::string_view s) {
  if (!s.empty() && s.front() == '=') s.remove_prefix(1);
  std::size_t pad = 0;
  while (!s.empty() && s.back() == '=') {
    s.remove_suffix(1);
    ++pad;
  }
  return !s.empty() && pad <= 2 && std::all_of(s.begin(), s.end(), pk_b64);
}

void pk_classify_marker(std::string_view text, PkLine& l) {
  const std::string_view line = text.substr(l.begin, l.content_end - l.begin);
  const std::size_t begin = line.find("-----BEGIN ");
  const std::size_t end = line.find("-----END ");
  const std::size_t at = std::min(begin, end);
  if (at == kPkNone) {
    if (const std::size_t putty = line.find("Private-Lines:"); putty != kPkNone) {
      l.kind = PkKind::kBegin;
      l.marker = l.begin + putty;
      l.marker_end = l.content_end;
    }
    return;
  }
  const std::size_t label = at + (at == begin ? 11 : 9);
  const std::size_t close = line.find("-----", label);
  const std::string_view name = line.substr(label, close == kPkNone ? kPkNone : close - label);
  l.marker = l.begin + at;
  l.marker_end = close == kPkNone ? l.content_end : l.begin + close + 5;
  if (!contains(name, "PRIVATE KEY")) {
    l.kind = PkKind::kOtherMarker;
  } else {
    l.kind = at == begin ? PkKind::kBegin : PkKind::kEnd;
  }
}

PkLine pk_classify(std::string_view text, std::size_t begin, std::size_t end) {
  PkLine l;
  l.begin = begin;
  l.end = end;
  std::size_t ce = end;
  while (ce > begin && (text[ce - 1] == ' ' || text[ce - 1] == '\t' || text[ce - 1] == '\r')) --ce;
  l.content_end = ce;
  l.payload = ce;
  if (ce == begin) {
    l.kind = PkKind::kBlank;
    return l;
  }
  pk_classify_marker(text, l);
  if (l.kind != PkKind::kOther) return l;
  const std::string_view line = text.substr(begin, ce - begin);
  for (std::string_view header : {"Proc-Type:", "DEK-Info:", "Comment:", "Version:"}) {
    if (contains(line, header)) {
      l.kind = PkKind::kHeader;
      l.payload = begin + line.find(header);
      return l;
    }
  }
  std::size_t start = line.size();
  while (start > 0 && (pk_b64(line[start - 1]) || line[start - 1] == '=')) --start;
  const std::string_view prefix = line.substr(0, start);
  const std::string_view payload = line.substr(start);
  if (payload.empty() || !pk_prefix_ok(prefix)) return l;
  if (prefix.empty() || prefix.find_first_not_of(" \t") == kPkNone) {
    l.prefix_shape = std::string(prefix);
  } else {
    l.prefix_shape = "sep";
  }
  if (!pk_base64_line(payload)) return l;
  l.payload = begin + start;
  const bool full_width = payload.size() == 64 || payload.size() == 70;
  if (full_width && payload.find('=') == kPkNone && pk_mixed_case(payload)) {
    l.kind = PkKind::kFull;
  } else if (payload.size() <= kMaxKeyLine) {
    l.kind = PkKind::kTail;
  }
  return l;
}

std::vector<PkLine> pk_lines(std::string_view text) {
  std::vector<PkLine> lines;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == kPkNone) end = text.size();
    lines.push_back(pk_classify(text, begin, end));
    begin = end + 1;
  }
  return lines;
}

struct PkSpan {
  std::size_t begin;
  std::size_t end;
};

// The key lines after line `i`, and an END line closing them: where the key ends.
std::size_t pk_extend_forward(const std::vector<PkLine>& lines, std::size_t i, std::size_t end,
                              bool headers_allowed) {
  bool body = false;
  for (std::size_t j = i + 1; j < lines.size(); ++j) {
    const PkLine& l = lines[j];
    if (!body && headers_allowed && (l.kind == PkKind::kHeader || l.kind == PkKind::kBlank))
      continue;
    if (l.kind == PkKind::kFull) {
      body = true;
      end = l.content_end;
      continue;
    }
    if (l.kind == PkKind::kTail) {
      end = l.content_end;
      if (j + 1 < lines.size() && lines[j + 1].kind == PkKind::kEnd) end = lines[j + 1].marker_end;
      break;
    }
    if (l.kind == PkKind::kEnd) end = l.marker_end;
    break;
  }
  return end;
}

// An END line: the key text before it on its line (a JSON string with \n escapes), and
// the key lines above it.
std::size_t pk_extend_backward(std::string_view text, const std::vector<PkLine>& lines,
                               std::size_t i) {
  const PkLine& end_line = lines[i];
  std::size_t start = end_line.marker;
  while (start > end_line.begin &&
         (pk_b64(text[start - 1]) || text[start - 1] == '=' || text[start - 1] == '\\')) {
    --start;
  }
  if (!pk_prefix_ok(text.substr(end_line.begin, start - end_line.begin))) return start;
  for (std::size_t j = i; j-- > 0;) {
    const PkKind k = lines[j].kind;
    const bool last_line = j + 1 == i && k == PkKind::kTail;
    if (k != PkKind::kFull && k != PkKind::kHeader && !last_line) break;
    start = lines[j].payload;
  }
  return start;
}

bool pk_inside(const std::vector<PkSpan>& spans, std::size_t at) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const PkSpan& s) { return at >= s.begin && at < s.end; });
}

std::size_t pk_line_of(const std::vector<PkLine>& lines, std::size_t at) {
  auto it = std::upper_bound(lines.begin(), lines.end(), at,
                             [](std::size_t a, const PkLine& l) { return a < l.begin; });
  return static_cast<std::size_t>(it - lines.begin()) - 1;
}

void pk_signature_runs(std::string_view text, const std::vector<PkLine>& lines,
                       std::vector<PkSpan>& spans) {
  for (std::size_t i = 0; i < text.size();) {
    if (!pk_b64(text[i]) || (i > 0 && pk_b64(text[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t start = i;
    // After a JSON or C escape (\n) the run starts one character later.
    if (i > 0 && text[i - 1] == '\\' && i + 1 < text.size()) ++start;
    std::size_t end = i;
    while (end < text.size() && pk_b64(text[end])) ++end;
    for (int pad = 0; pad < 2 && end < text.size() && text[end] == '='; ++pad) ++end;
    i = end;
    if (end - start < kMinSignatureRun || pk_inside(spans, start)) continue;
    const char first = text[start];
    if (first != 'M' && first != 'b' && first != 'L') continue;
    if (!looks_like_private_key_base64(text.substr(start, end - start))) continue;
    std::size_t stop = end;
    const std::size_t line = pk_line_of(lines, start);
    if (end == lines[line].content_end && end - start <= kMaxKeyLine)
      stop = pk_extend_forward(lines, line, end, /*headers_allowed=*/false);
    spans.push_back({start, stop});
  }
}

// Two or more full-width lines of one width opening the text: a page that starts
// inside a key. A certificate's END line after them says otherwise.
void pk_leading_run(const std::vector<PkLine>& lines, std::vector<PkSpan>& spans) {
  std::size_t f = 0;
  while (f < lines.size() && lines[f].kind == PkKind::kBlank) ++f;
  if (f >= lines.size() || lines[f].kind != PkKind::kFull) return;
  const std::size_t width = lines[f].content_end - lines[f].payload;
  std::size_t j = f;
  while (j < lines.size() && lines[j].kind == PkKind::kFull &&
         lines[j].content_end - lines[j].payload == width &&
         lines[j].prefix_shape == lines[f].prefix_shape) {
    ++j;
  }
  const std::size_t full_lines = j - f;
  std::size_t end = lines[j - 1].content_end;
  bool tail = false;
  if (j < lines.size() && lines[j].kind == PkKind::kTail &&
      lines[j].prefix_shape == lines[f].prefix_shape) {
    end = lines[j].content_end;
    tail = true;
    ++j;
  }
  std::size_t rest = j;
  while (rest < lines.size() && lines[rest].kind == PkKind::kBlank) ++rest;
  // One full line and a last one make a page only when nothing follows them.
  if (full_lines < 2 && !(tail && rest == lines.size())) return;
  if (j < lines.size() && lines[j].kind == PkKind::kOtherMarker) return;
  spans.push_back({lines[f].payload, end});
}

std::vector<PkSpan> pk_find_spans(std::string_view text) {
  const std::vector<PkLine> lines = pk_lines(text);
  std::vector<PkSpan> spans;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].kind != PkKind::kBegin) continue;
    // The rest of the BEGIN line goes too: in a JSON string it is the key itself.
    spans.push_back({lines[i].marker, pk_extend_forward(lines, i, lines[i].content_end, true)});
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].kind != PkKind::kEnd || pk_inside(spans, lines[i].marker)) continue;
    spans.push_back({pk_extend_backward(text, lines, i), lines[i].marker_end});
  }
  pk_signature_runs(text, lines, spans);
  pk_leading_run(lines, spans);
  std::sort(spans.begin(), spans.end(),
            [](const PkSpan& a, const PkSpan& b) { return a.begin < b.begin; });
  std::vector<PkSpan> merged;
  for (const PkSpan& s : spans) {
    if (!merged.empty() && s.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, s.end);
    } else {
      merged.push_back(s);
    }
  }
  return merged;
}

// Whole blocks first, also those written on one line with \n escapes (JSON).
std::string pk_redact_whole_blocks(std::string_view text) {
  static const Regex re =
      Regex::builtin(R"(-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----)");
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto m = re.find(text, pos);
    if (!m || m->end() == m->begin()) break;
    out.append(text.substr(pos, m->begin() - pos));
    out += kRedactedKey;
    pos = m->end();
  }
  out.append(text.substr(std::min(pos, text.size())));
  return out;
}

// Whether the DER bytes `b` start a private key structure.
bool pk_der_private_key(std::string_view b) {
  auto at = [&](std::size_t k) { return k < b.size() ? static_cast<unsigned char>(b[k]) : 0x100u; };
  if (at(0) != 0x30) return false;
  std::size_t i = 0;
  if (at(1) < 0x80) {
    i = 2;
  } else if (at(1) >= 0x81 && at(1) <= 0x83) {
    i = 2 + (at(1) - 0x80);
  } else {
    return false;
  }
  // SEQUENCE { INTEGER version 0|1, ... }: PKCS#1 RSA (and DSA), SEC1 EC, PKCS#8.
  if (at(i) == 0x02 && at(i + 1) == 0x01 && (at(i + 2) == 0 || at(i + 2) == 1)) {
    const unsigned next = at(i + 3);
    if (at(i + 2) == 0 && next == 0x02) return true;
    if (at(i + 2) == 1 && next == 0x04) return true;
    return next == 0x30 && at(i + 4) < 0x80 && at(i + 5) == 0x06;
  }
  // Encrypted PKCS#8: SEQUENCE { SEQUENCE { OID pkcs5 or pkcs12 PBE ...
  if (at(i) != 0x30) return false;
  std::size_t j = i + 2;
  if (at(i + 1) == 0x81) j = i + 3;
  if (at(j) != 0x06) return false;
  const std::string_view oid = b.substr(std::min(b.size(), j + 2));
  return oid.starts_with("\x2a\x86\x48\x86\xf7\x0d\x01\x05") ||
         oid.starts_with("\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01");
}

}  // namespace

bool looks_like_private_key_base64(std::string_view blob) {
  const std::string bytes = base64_decode_prefix(blob, 48);
  if (bytes.size() < 8) return false;
  if (starts_with(bytes, std::string_view("openssh-key-v1\0", 15))) return true;
  if (starts_with(bytes, "-----BEGIN ")) return contains(bytes, "PRIVATE KEY");
  return pk_der_private_key(bytes);
}

std::string redact_private_keys(std::string_view text) {
  std::string out =
      contains(text, "PRIVATE KEY-----") ? pk_redact_whole_blocks(text) : std::string(text);
  const std::vector<PkSpan> spans = pk_find_spans(out);
  if (spans.empty()) return out;
  std::string redacted;
  std::size_t pos = 0;
  for (const PkSpan& s : spans) {
    redacted.append(out, pos, s.begin - pos);
    redacted += kRedactedKey;
    pos = s.end;
  }
  redacted.append(out, pos, std::string::npos);
  return redacted;
}

std::vector<bool> private_key_lines(const std::vector<std::string>& lines) {
  std::string joined;
  std::vector<std::size_t> starts;
  for (const std::string& line : lines) {
    starts.push_back(joined.size());
    joined += line;
    joined += '\n';
  }
  std::vector<bool> marked(lines.size(), false);
  for (const PkSpan& s : pk_find_spans(joined)) {
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const std::size_t b = starts[k];
      const std::size_t e = b + lines[k].size();  // The newline counts as the line's.
      if (s.begin <= e && s.end > b) marked[k] = true;
    }
  }
  return marked;
}

}  // namespace hermes::internal
