// The transcript as providers see it (the system prompt first, then the messages with
// the sequence repairs and sanitising of hermes/message_utils.hpp applied), kept between
// the steps of a turn so that a step works only on what changed since the last one.
//
// The wire copy is a function of the input list that splits at every assistant message
// with tool calls: such a message ends the tool group before it (whose unanswered calls
// get their stubs there), resets the pairing of results, is never dropped, and cannot
// merge with a neighbour. So the wire copy of a list is the concatenation of the wire
// copies of its segments, each starting at such a message. A segment is reused when
// its messages are unchanged (by fingerprint) and the next segment still starts where
// it ended; everything from the first segment that fails this is recomputed. Token
// counts are kept per wire message, and the built-in providers keep each wire message's
// encoding in the transcript's encoding cache, both invalidated from the same point.
//
// The wire list is lent to a request (lend) and taken back after the call (take_back),
// so a step copies no message. Anything that edits a lent list must call invalidate().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "context/message_token_count.hpp"
#include "hermes/message.hpp"
#include "providers/message_encoding_cache.hpp"

namespace hermes::internal {

class WireTranscript {
 public:
  // Brings the wire copy up to date with `system` (empty: none) and `messages`.
  void update(const std::string& system, const std::vector<Message>& messages);

  // estimate_messages_tokens_rough of the wire copy.
  int64_t estimate() const;

  // Moves the wire copy out, for a request; update() recomputes everything while it is
  // out. take_back() returns it when `lease` is still the current one.
  std::vector<Message> lend(uint64_t& lease);
  void take_back(std::vector<Message> messages, uint64_t lease);

  // The lent copy was edited (or anything else makes the kept state doubtful).
  void invalidate();

  MessageEncodingCache* encoding_cache() { return &encodings_; }

  // How many wire messages the last update() recomputed (the rest were reused).
  std::size_t recomputed() const { return recomputed_; }

 private:
  struct Segment {
    std::size_t input_begin = 0;  // Into the input list (the system prompt is input 0).
    std::size_t input_end = 0;
    std::size_t wire_end = 0;  // Into wire_; a segment begins where the last ended.
    uint64_t fingerprint = 0;  // Of its input messages, in order.
  };

  Message system_;  // The system prompt as input 0, rebuilt when its text changes.
  std::vector<Segment> segments_;
  std::vector<Message> wire_;
  std::vector<MessageTokenCount> counts_;  // One per wire message.
  MessageEncodingCache encodings_;
  bool lent_ = false;
  uint64_t lease_ = 0;
  std::size_t recomputed_ = 0;
};

}  // namespace hermes::internal
