// Proof Key for Code Exchange (RFC 7636, S256) and the other secrets an authorization
// request carries.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hermes::internal {

// `bytes` bytes from the operating system's random source, base64url-encoded: 32 bytes
// give a 43-character PKCE verifier or state value.
std::string random_url_token(std::size_t bytes = 32);

// BASE64URL(SHA256(verifier)), the S256 code_challenge of `verifier`.
std::string pkce_challenge(std::string_view verifier);

struct Pkce {
  std::string verifier;
  std::string challenge;
};

Pkce make_pkce();

}  // namespace hermes::internal
