// The rough token estimate of a message list (estimate_messages_tokens_rough) in parts
// that add up: each message's count is kept with the message, so an estimate of a grown
// list counts only the messages added.
#pragma once

#include <cstdint>

#include "hermes/message.hpp"

namespace hermes::internal {

// What one message adds to the estimate of a list it is in.
struct MessageTokenCount {
  int64_t dense = 0;        // Characters a tokenizer spends about one token on.
  int64_t other_bytes = 0;  // Every other byte of the message's serialised wire form.
  int64_t images = 0;       // Image parts, counted at a fixed price each.
};

MessageTokenCount count_message_tokens(const Message& message);

// The same total as estimate_messages_tokens_rough for the list whose counts sum to
// `sum` and that has `messages` messages.
int64_t list_tokens(const MessageTokenCount& sum, std::size_t messages);

inline MessageTokenCount& operator+=(MessageTokenCount& a, const MessageTokenCount& b) {
  a.dense += b.dense;
  a.other_bytes += b.other_bytes;
  a.images += b.images;
  return a;
}

}  // namespace hermes::internal
