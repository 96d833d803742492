// The encoded form of each message of a request, kept by the agent loop between the
// calls of a turn so that a call encodes only the messages the previous one did not have.
// Entry i belongs to request.messages[i]; the owner drops every entry from the first
// message that changed (keep_first) before lending the cache to the next request. A
// provider stores an encoding under a key naming everything besides the message that
// shaped it (its wire format and dialect) and finds it only under the same key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hermes::internal {

class MessageEncodingCache {
 public:
  // The next request's first `n` messages are those of the last one; the rest are new.
  void keep_first(std::size_t n) {
    if (n < entries_.size()) entries_.resize(n);
  }
  void clear() { entries_.clear(); }

  // The size of the last body written with the cache: the next one's starting capacity.
  std::size_t bytes_hint() const { return bytes_hint_ + bytes_hint_ / 8 + 4096; }
  void note_bytes(std::size_t n) { bytes_hint_ = n; }

  // The bytes stored for message `i` under `key`, or null.
  const std::string* find(std::size_t i, uint64_t key) const {
    if (i >= entries_.size() || !entries_[i].set || entries_[i].key != key) return nullptr;
    return &entries_[i].bytes;
  }

  void store(std::size_t i, uint64_t key, std::string bytes) {
    if (i >= entries_.size()) entries_.resize(i + 1);
    entries_[i] = Entry{key, std::move(bytes), true};
  }

 private:
  struct Entry {
    uint64_t key = 0;
    std::string bytes;
    bool set = false;
  };
  std::vector<Entry> entries_;
  std::size_t bytes_hint_ = 0;
};

}  // namespace hermes::internal
