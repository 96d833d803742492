// Secret redaction on arbitrary text, under each set of options the tools use.
//
// Invariants: nothing throws or runs away; valid UTF-8 stays valid UTF-8 (a mask that
// keeps "the first 6 and last 4 characters" must not cut a character in half); and a
// credential on a line of its own is masked whatever text surrounds it.
#include <string>

#include "common/utf8.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/redaction.hpp"

namespace {

using hermes::RedactionOptions;
using hermes::fuzz::require;

// A GitHub token shape the redactor always recognises (see tests/fixtures/redaction).
constexpr std::string_view kPlantedSecret = "ghp_1234567890abcdefghijklmnopqrstuvwxyz12";

// The planted credential, changed until the input does not already hold it: an input
// copy inside a word ("Xghp_...") is rightly left alone, and must not be mistaken for
// the planted line surviving. Empty (no check) for an input holding every variant.
std::string planted_secret_for(std::string_view text) {
  std::string secret(kPlantedSecret);
  for (char c = 'A'; c <= 'Z'; ++c) {
    if (text.find(secret) == std::string_view::npos) return secret;
    secret.back() = c;
  }
  return {};
}

RedactionOptions options_for(int variant) {
  RedactionOptions o;
  o.force = true;
  o.code_file = variant == 1;
  o.file_read = variant == 2 || variant == 3;
  o.secret_file = variant == 3;
  o.redact_url_credentials = variant == 4;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = hermes::fuzz::as_text(data, size);
  hermes::fuzz::no_throw("redact_sensitive_text", [&] {
    const bool valid = hermes::internal::is_valid_utf8(text);
    const std::size_t middle = text.find('\n') == std::string_view::npos ? text.size() / 2
                                                                         : text.find('\n');
    const std::string secret = planted_secret_for(text);
    const std::string planted = std::string(text.substr(0, middle)) + "\n" + secret + "\n" +
                                std::string(text.substr(middle));
    for (int variant = 0; variant < 5; ++variant) {
      const RedactionOptions options = options_for(variant);
      const std::string out = hermes::redact_sensitive_text(text, options);
      if (valid) require(hermes::internal::is_valid_utf8(out), "redaction broke UTF-8", out);
      const std::string masked = hermes::redact_sensitive_text(planted, options);
      require(secret.empty() || masked.find(secret) == std::string::npos,
              "a credential on its own line survived redaction", masked);
    }
  });
  return 0;
}
