#include "providers/url_parts.hpp"

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

// Everything after "scheme://", or the whole text when there is no scheme.
std::string_view after_scheme(std::string_view url) {
  url = trim_ascii(url);
  const std::size_t scheme = url.find("://");
  return scheme == std::string_view::npos ? url : url.substr(scheme + 3);
}

}  // namespace

std::string url_host(std::string_view url) {
  std::string_view authority = after_scheme(url);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);  // user:password@
  }
  if (!authority.empty() && authority.front() == '[') {
    return lower_ascii(authority.substr(0, authority.find(']') + 1));
  }
  return lower_ascii(authority.substr(0, authority.find(':')));
}

std::string url_path(std::string_view url) {
  const std::string_view rest = after_scheme(url);
  const std::size_t slash = rest.find_first_of("/?#");
  if (slash == std::string_view::npos || rest[slash] != '/') return {};
  std::string path = lower_ascii(rest.substr(slash, rest.find_first_of("?#", slash) - slash));
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path;
}

std::string without_trailing_slashes(std::string_view url) {
  std::string out(trim_ascii(url));
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace hermes::internal
