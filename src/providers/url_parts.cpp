#include "providers/url_parts.hpp"

#include "common/text_utils.hpp"
#include "providers/url.hpp"

namespace hermes::internal {

std::string url_host(std::string_view url) {
  const auto parsed = parse_url(url, "http");
  return parsed ? parsed->host : std::string();
}

std::string url_path(std::string_view url) {
  const auto parsed = parse_url(url, "http");
  if (!parsed) return {};
  std::string path = lower_ascii(parsed->path);
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path;
}

std::string without_trailing_slashes(std::string_view url) {
  std::string out(trim_ascii(url));
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace hermes::internal
