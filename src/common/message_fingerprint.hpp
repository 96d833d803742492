// A 64-bit fingerprint of a message's every field: equal messages have equal fingerprints,
// and an edit anywhere in a message changes its fingerprint except with negligible
// probability. The agent loop uses it to tell which messages of a transcript are the ones
// it encoded at the previous step. Not for anything an attacker could want to collide:
// the loop's own edits are what it detects.
#pragma once

#include <cstdint>
#include <string_view>

#include "hermes/message.hpp"

namespace hermes::internal {

// A fast hash of `bytes` (about the speed of copying them), continuing `seed`.
uint64_t hash_bytes(std::string_view bytes, uint64_t seed);

uint64_t message_fingerprint(const Message& message);

}  // namespace hermes::internal
