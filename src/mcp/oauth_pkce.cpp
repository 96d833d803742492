#include "mcp/oauth_pkce.hpp"

#include <random>
#include <string>

#if defined(__linux__)
#include <sys/random.h>
#endif

#include "common/base64.hpp"
#include "common/sha256.hpp"

namespace hermes::internal {
namespace {

std::string random_bytes(std::size_t count) {
  std::string bytes(count, '\0');
  std::size_t filled = 0;
#if defined(__linux__)
  while (filled < count) {
    const ssize_t n = getrandom(bytes.data() + filled, count - filled, 0);
    if (n <= 0) break;  // Interrupted before any byte, or no getrandom: fall back below.
    filled += static_cast<std::size_t>(n);
  }
#endif
  // std::random_device reads the system's entropy source where the call above is missing.
  std::random_device device;
  for (; filled < count; ++filled) bytes[filled] = static_cast<char>(device() & 0xFF);
  return bytes;
}

}  // namespace

std::string random_url_token(std::size_t bytes) {
  return base64url_encode(random_bytes(bytes));
}

std::string pkce_challenge(std::string_view verifier) {
  return base64url_encode(sha256_digest(verifier));
}

Pkce make_pkce() {
  Pkce pkce;
  pkce.verifier = random_url_token(32);
  pkce.challenge = pkce_challenge(pkce.verifier);
  return pkce;
}

}  // namespace hermes::internal
