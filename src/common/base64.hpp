// Base64 (RFC 4648): the standard alphabet with padding for HTTP Basic credentials, the
// URL-safe alphabet without padding for PKCE and other tokens that travel in URLs.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

std::string base64_encode(std::string_view bytes);
std::string base64url_encode(std::string_view bytes);

}  // namespace hermes::internal
