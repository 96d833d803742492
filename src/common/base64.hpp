// Base64 (RFC 4648): the standard alphabet with padding for HTTP Basic credentials, the
// URL-safe alphabet without padding for PKCE and other tokens that travel in URLs.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

std::string base64_encode(std::string_view bytes);
std::string base64url_encode(std::string_view bytes);

// The bytes of the standard-alphabet base64 `text` up to its first character outside the
// alphabet (padding included), at most `max_bytes` of them; a trailing partial group
// yields what its whole bytes hold. For recognising what a blob is, never for data.
std::string base64_decode_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace hermes::internal
