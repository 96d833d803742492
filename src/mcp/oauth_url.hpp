// The URL arithmetic of OAuth discovery and the encodings of its requests: splitting an
// http(s) URL, form and query encoding, and reading a redirect's query.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hermes::internal {

// An absolute http(s) URL in its parts, as parse_url (providers/url.hpp) reads it.
// `origin` is "scheme://authority" in lower case; `path` is "" or starts with '/'; query
// and fragment are dropped.
struct UrlParts {
  std::string origin;
  std::string path;
};

// nullopt for anything but an absolute http or https URL.
std::optional<UrlParts> split_url(std::string_view url);

// Whether OAuth may talk to `url`: https, or plain http to a loopback host (localhost,
// 127.0.0.0/8, [::1]), where nothing crosses a network. Codes, tokens and client secrets
// sent in the clear are anyone's on the path.
bool is_secure_oauth_url(std::string_view url);

// The form of `url` that names a resource (RFC 8707): scheme and host in lower case, no
// query, no fragment, no trailing slash. `url` itself when it cannot be split.
std::string canonical_resource(std::string_view url);

// Percent-encoding of everything but the unreserved characters (RFC 3986).
std::string percent_encode(std::string_view text);

using FormFields = std::vector<std::pair<std::string, std::string>>;

// "k=v&k2=v2", for an application/x-www-form-urlencoded body or a URL's query.
std::string form_encode(const FormFields& fields);

// `url` with `fields` added to its query.
std::string with_query(std::string_view url, const FormFields& fields);

// The query parameters of `url` (or of a bare "k=v&..." string), decoded; the first of a
// repeated name wins.
std::map<std::string, std::string> query_parameters(std::string_view url);

}  // namespace hermes::internal
