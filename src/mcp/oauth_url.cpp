#include "mcp/oauth_url.hpp"

#include <cctype>

#include "common/text_utils.hpp"
#include "providers/url.hpp"

namespace hermes::internal {
namespace {

bool unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

}  // namespace

std::optional<UrlParts> split_url(std::string_view url) {
  const auto parsed = parse_url(url);
  if (!parsed || (parsed->scheme != "http" && parsed->scheme != "https")) return std::nullopt;
  return UrlParts{parsed->origin(), parsed->path == "/" ? std::string() : parsed->path};
}

bool is_secure_oauth_url(std::string_view url) {
  const auto parsed = parse_url(url);
  if (!parsed || (parsed->scheme != "http" && parsed->scheme != "https")) return false;
  if (parsed->scheme == "https") return true;
  const std::string_view host = parsed->host;
  if (host == "[::1]" || host == "localhost") return true;
  // 127.0.0.0/8 (libcurl writes any IPv4 host as four decimal numbers).
  if (!starts_with(host, "127.")) return false;
  int dots = 0;
  for (char c : host) {
    if (c == '.') {
      ++dots;
    } else if (!is_ascii_digit(c)) {
      return false;
    }
  }
  return dots == 3 && host.back() != '.';
}

std::string canonical_resource(std::string_view url) {
  auto parts = split_url(url);
  if (!parts) return std::string(url);
  std::string path = parts->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  return parts->origin + path;
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

std::string form_encode(const FormFields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out += '&';
    out += percent_encode(name) + '=' + percent_encode(value);
  }
  return out;
}

std::string with_query(std::string_view url, const FormFields& fields) {
  std::string out(url.substr(0, url.find('#')));
  out += out.find('?') == std::string::npos ? '?' : '&';
  return out + form_encode(fields);
}

std::map<std::string, std::string> query_parameters(std::string_view url) {
  std::string_view query = url;
  if (const std::size_t q = url.find('?'); q != std::string_view::npos) query = url.substr(q + 1);
  query = query.substr(0, query.find('#'));
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t eq = pair.find('=');
    std::string name = percent_decode(pair.substr(0, eq), /*plus_is_space=*/true);
    std::string value = eq == std::string_view::npos
                            ? ""
                            : percent_decode(pair.substr(eq + 1), /*plus_is_space=*/true);
    if (!name.empty()) out.emplace(std::move(name), std::move(value));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

}  // namespace hermes::internal
