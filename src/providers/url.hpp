// URLs, read by libcurl's URL parser (curl_url): the one reading of a URL in the library,
// so the host a request goes to is the host every check looked at.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

struct Url {
  std::string scheme;    // Lower-cased.
  std::string userinfo;  // "user" or "user:password" as written; empty when absent.
  bool has_userinfo = false;
  std::string host;         // Lower-cased; an IPv6 literal keeps its brackets ("[::1]").
  std::optional<int> port;  // When written.
  std::string path;         // As written (dot segments kept); "/" when there is none.
  bool has_query = false;
  bool has_fragment = false;

  // "scheme://[userinfo@]host[:port]", lower-cased.
  std::string origin() const;
};

// `text` (surrounding whitespace ignored) read as an absolute URL; a text without "://"
// is read as "<default_scheme>://text" when `default_scheme` is given. nullopt when
// libcurl rejects it (no host, a bad port, characters a URL cannot hold).
std::optional<Url> parse_url(std::string_view text, std::string_view default_scheme = {});

}  // namespace hermes::internal
