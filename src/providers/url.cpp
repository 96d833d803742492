#include "providers/url.hpp"

#include <curl/curl.h>

#include <charconv>
#include <memory>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

using UrlHandle = std::unique_ptr<CURLU, decltype(&curl_url_cleanup)>;

// The part of `url`, or nullopt when it has none.
std::optional<std::string> part(CURLU* url, CURLUPart which) {
  char* text = nullptr;
  if (curl_url_get(url, which, &text, 0) != CURLUE_OK || text == nullptr) return std::nullopt;
  std::string out(text);
  curl_free(text);
  return out;
}

}  // namespace

std::string Url::origin() const {
  std::string out = scheme + "://";
  if (has_userinfo) out += lower_ascii(userinfo) + "@";
  out += host;
  if (port) out += ":" + std::to_string(*port);
  return out;
}

std::optional<Url> parse_url(std::string_view text, std::string_view default_scheme) {
  std::string whole(trim_ascii(text));
  if (whole.find("://") == std::string::npos) {
    if (default_scheme.empty()) return std::nullopt;
    whole = std::string(default_scheme) + "://" + whole;
  }
  UrlHandle url(curl_url(), &curl_url_cleanup);
  if (!url) return std::nullopt;
  unsigned int flags = CURLU_NON_SUPPORT_SCHEME | CURLU_PATH_AS_IS;
#ifdef CURLU_ALLOW_SPACE
  flags |= CURLU_ALLOW_SPACE;
#endif
  if (curl_url_set(url.get(), CURLUPART_URL, whole.c_str(), flags) != CURLUE_OK) {
    return std::nullopt;
  }
  Url out;
  out.scheme = lower_ascii(part(url.get(), CURLUPART_SCHEME).value_or(""));
  out.host = lower_ascii(part(url.get(), CURLUPART_HOST).value_or(""));
  if (out.host.empty()) return std::nullopt;
  if (auto user = part(url.get(), CURLUPART_USER)) {
    out.has_userinfo = true;
    out.userinfo = *user;
    if (auto password = part(url.get(), CURLUPART_PASSWORD)) out.userinfo += ":" + *password;
  }
  if (auto port = part(url.get(), CURLUPART_PORT)) {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(port->data(), port->data() + port->size(), value);
    if (ec != std::errc() || ptr != port->data() + port->size()) return std::nullopt;
    out.port = value;
  }
  out.path = part(url.get(), CURLUPART_PATH).value_or("/");
  out.has_query = part(url.get(), CURLUPART_QUERY).has_value();
  out.has_fragment = part(url.get(), CURLUPART_FRAGMENT).has_value();
  return out;
}

}  // namespace hermes::internal
