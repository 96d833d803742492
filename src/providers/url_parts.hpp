// The host and path of a configured base URL (read by parse_url, providers/url.hpp), for
// choosing wire formats and dialects.
// Exact comparisons on these (never substring tests on the whole URL) keep look-alike
// hosts such as api.anthropic.com.example.test from matching.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// The lower-cased host of `url` ("api.openai.com", "[::1]"), or "" when it has none.
std::string url_host(std::string_view url);

// The lower-cased path of `url`, without query, fragment or trailing slashes.
std::string url_path(std::string_view url);

// `url` without surrounding whitespace and trailing slashes, ready for a path to be
// appended ("https://host/v1/" + "/models" must not become "//models").
std::string without_trailing_slashes(std::string_view url);

}  // namespace hermes::internal
