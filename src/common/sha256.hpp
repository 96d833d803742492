// SHA-256 (FIPS 180-4): content-addressing stored system prompts as upstream does,
// derived tool-call ids, and PKCE code challenges.
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// The 32-byte SHA-256 digest of `data`.
std::string sha256_digest(std::string_view data);

// The SHA-256 digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace hermes::internal
