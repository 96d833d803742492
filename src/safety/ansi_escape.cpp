#include "safety/ansi_escape.hpp"

namespace hermes::internal {
namespace {

constexpr char kEsc = '\x1b';

bool in_range(char c, int lo, int hi) {
  const auto u = static_cast<unsigned char>(c);
  return u >= lo && u <= hi;
}

// End of a CSI sequence whose parameters start at `i`: parameter bytes, intermediate
// bytes, then one final byte.
std::size_t csi_end(std::string_view s, std::size_t i) {
  while (i < s.size() && in_range(s[i], 0x30, 0x3F)) ++i;
  while (i < s.size() && in_range(s[i], 0x20, 0x2F)) ++i;
  return i < s.size() && in_range(s[i], 0x40, 0x7E) ? i + 1 : i;
}

// End of a string sequence (OSC, DCS, ...) whose body starts at `i`: up to BEL (OSC only)
// or the string terminator ESC \ (or the 8-bit ST).
std::size_t string_end(std::string_view s, std::size_t i, bool bel_ends) {
  for (; i < s.size(); ++i) {
    if (bel_ends && s[i] == '\a') return i + 1;
    if (s[i] == kEsc && i + 1 < s.size() && s[i + 1] == '\\') return i + 2;
    if (s[i] == '\xC2' && i + 1 < s.size() && s[i + 1] == '\x9C') return i + 2;
  }
  return s.size();
}

// End of the escape sequence starting with ESC at `i`.
std::size_t escape_end(std::string_view s, std::size_t i) {
  if (i + 1 >= s.size()) return s.size();
  const char next = s[i + 1];
  switch (next) {
    case '[':
      return csi_end(s, i + 2);
    case ']':
      return string_end(s, i + 2, true);
    case 'P':
    case 'X':
    case '^':
    case '_':
      return string_end(s, i + 2, false);
    default:
      break;
  }
  std::size_t k = i + 1;
  while (k < s.size() && in_range(s[k], 0x20, 0x2F)) ++k;  // Intermediates (nF escapes).
  return k < s.size() && in_range(s[k], 0x30, 0x7E) ? k + 1 : k;
}

}  // namespace

std::string strip_ansi(std::string_view s) {
  if (s.find(kEsc) == std::string_view::npos && s.find("\xC2\x9B") == std::string_view::npos) {
    return std::string(s);
  }
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == kEsc) {
      i = escape_end(s, i);
    } else if (s[i] == '\xC2' && i + 1 < s.size() && s[i + 1] == '\x9B') {
      i = csi_end(s, i + 2);  // The 8-bit CSI, U+009B.
    } else {
      out += s[i++];
    }
  }
  return out;
}

}  // namespace hermes::internal
