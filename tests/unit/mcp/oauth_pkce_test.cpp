// PKCE and the encodings under it.
#include "mcp/oauth_pkce.hpp"

#include <doctest/doctest.h>

#include <set>

#include "common/base64.hpp"

using namespace hermes::internal;

TEST_CASE("the S256 challenge matches the test vector of RFC 7636 appendix B") {
  CHECK(pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") ==
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST_CASE("verifiers are 43 URL-safe characters, fresh every time, with their challenge") {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const Pkce pkce = make_pkce();
    CHECK(pkce.verifier.size() == 43);
    CHECK(pkce.verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789-_") == std::string::npos);
    CHECK(pkce.challenge == pkce_challenge(pkce.verifier));
    seen.insert(pkce.verifier);
  }
  CHECK(seen.size() == 50);
}

TEST_CASE("base64 matches the test vectors of RFC 4648") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) CHECK(base64_encode(plain) == encoded);
  CHECK(base64url_encode("\xfb\xff") == "-_8");
  CHECK(base64_encode("\xfb\xff") == "+/8=");
}
