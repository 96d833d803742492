// SHA-256, for content-addressing stored system prompts as upstream does.
#pragma once

#include <string>
#include <string_view>

namespace hermes::store {

// The SHA-256 digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace hermes::store
