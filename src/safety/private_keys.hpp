// Private keys in text, whole or in pieces. A page of a file, a search hit or the tail of
// command output can hold part of a key without its BEGIN or END line, so beyond whole
// PEM blocks this recognises:
//   - a BEGIN line whose END is missing, and an END line whose BEGIN is missing, with
//     the key lines next to them;
//   - a base64 run that starts like a private key: the openssh-key-v1 magic, a DER RSA,
//     EC or PKCS#8 private key (a SEQUENCE opening with version 0 or 1, unlike
//     certificates and public keys), an encrypted PKCS#8 key, or a base64-encoded PEM
//     private key (Kubernetes secrets), with the key lines that follow it;
//   - two or more full-width key lines (64 characters as in PEM, or 70 as in OpenSSH) at
//     the very top of the text, or one and a shorter last line that end the text: the
//     shape of a page that starts inside a key, unless a certificate's END line closes
//     them. Base64 wrapped at 64 columns further down is left alone.
// A line may carry a prefix of the kind tools add ("12|", "key.pem:12:", "    12\t").
// Lines of hex digits (hashes) are never taken for key lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// `text` with each private key, or piece of one, replaced by [REDACTED PRIVATE KEY].
std::string redact_private_keys(std::string_view text);

// For each of `lines`, whether it holds part of a private key: for callers that show
// lines one at a time (search hits), where a line from the middle of a key gives nothing
// away on its own.
std::vector<bool> private_key_lines(const std::vector<std::string>& lines);

// Whether the base64 text `blob` starts like a private key (see above).
bool looks_like_private_key_base64(std::string_view blob);

}  // namespace hermes::internal
